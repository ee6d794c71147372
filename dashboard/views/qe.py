"""Page "Quality estimation" -- placeholder; helper C replaces this file."""

import streamlit as st

st.title("Quality estimation")
st.info("This page is being built.")
