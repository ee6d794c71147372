"""Page "Metrics vs humans" -- placeholder until the full page lands."""

import streamlit as st

st.title("Metrics vs humans")
st.info("This page is being built.")
