"""Page "Tests vs humans" -- placeholder; helper D replaces this file."""

import streamlit as st

st.title("Tests vs humans")
st.info("This page is being built.")
