"""The seccomp filter bubblewrap installs before the candidate's Python starts (``--seccomp FD``).

Built with libseccomp (PyPI ``pyseccomp``, a ctypes binding that loads Debian's libseccomp2 from
any Python, the app's pyenv 3.11 included; Debian's ``python3-seccomp`` is built for the system
Python only). Everything is allowed except the calls a metric never needs and an escape does:
new namespaces, mounts, tracing other processes, the kernel keyring, io_uring, bpf, perf events,
userfaultfd, loading kernels or modules. They fail with EPERM, so the candidate sees a plain
``PermissionError``. ``clone3`` passes its flags in memory a filter cannot read, so it fails with
ENOSYS and glibc falls back to ``clone``, whose namespace flags are checked (what Docker and
Flatpak do). Calls from another architecture's ABI (32-bit ``int 0x80``) kill the process.
"""

from __future__ import annotations

import errno
import functools
import os
import tempfile

REFUSED = (
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "keyctl", "add_key", "request_key",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "bpf", "perf_event_open", "userfaultfd",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "open_by_handle_at", "name_to_handle_at", "swapon", "swapoff", "reboot", "acct", "quotactl",
)
NAMESPACE_FLAGS = {
    "CLONE_NEWTIME": 0x00000080, "CLONE_NEWNS": 0x00020000, "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000, "CLONE_NEWIPC": 0x08000000, "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000, "CLONE_NEWNET": 0x40000000,
}


@functools.lru_cache(maxsize=1)
def bpf_program() -> bytes:
    """The compiled filter (classic BPF, as bubblewrap reads it), built once per process."""
    import pyseccomp as seccomp

    refuse = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in REFUSED:
        rules.add_rule(refuse, name)
    for flag in NAMESPACE_FLAGS.values():
        rules.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as program:
        rules.export_bpf(program)
        program.seek(0)
        return program.read()


def program_fd() -> int:
    """A fresh, inheritable descriptor holding the program from its start (bubblewrap reads it to the end)."""
    fd = os.memfd_create("receval-kata-seccomp", 0)
    os.write(fd, bpf_program())
    os.lseek(fd, 0, os.SEEK_SET)
    os.set_inheritable(fd, True)
    return fd
