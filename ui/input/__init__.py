"""What a reader types or brings, read back: editor tables parsed and checked, scenario links and files encoded and decoded. No Streamlit."""
