"""Page "MT systems" -- placeholder; helper B replaces this file."""

import streamlit as st

st.title("MT systems")
st.info("This page is being built.")
