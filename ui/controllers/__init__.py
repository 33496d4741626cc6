"""Page-specific logic: what one page (or the lessons) shows and how it answers, built on the shared pieces of ui/."""
