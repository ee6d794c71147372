"""Sections of the pages under ``dashboard/views/`` (each page script imports its sections;
no section is a page of its own)."""
