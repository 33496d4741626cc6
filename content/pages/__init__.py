"""The texts of each page, one module per page topic (ui/navigation.py names the topics)."""
