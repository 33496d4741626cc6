"""Which client a request comes from, for the limits on joins and wrong codes: its network address.

A browser's cookies change on every reload (and a hostile client drops them), so the limits are keyed
on the address instead. Behind ``deploy/``'s nginx every request comes from the loopback proxy, which
appends the client's address to ``X-Forwarded-For``: its last entry is trusted, and only then (a
client elsewhere could write any ``X-Forwarded-For`` it likes).
"""

from __future__ import annotations

import ipaddress

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def client_address(peer: str | None, forwarded_for: str | None = None) -> str | None:
    """The address to key the limits on, or None for a client on this machine (not limited).

    ``peer`` is the TCP peer (``st.context.ip_address``, which is None for loopback; or a Starlette
    request's ``client.host``); ``forwarded_for`` the ``X-Forwarded-For`` header. An IPv6 client is keyed
    on its /64 network, the block one household or phone is given, so it cannot walk through addresses.
    """
    if peer and peer not in LOOPBACK:
        return _keyed(peer)
    if forwarded_for:
        last = str(forwarded_for).split(",")[-1].strip()
        if last and last not in LOOPBACK:
            return _keyed(last)
    return None


def _keyed(address: str) -> str:
    try:
        parsed = ipaddress.ip_address(address.strip().split("%")[0])
    except ValueError:
        return address.strip()[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)
