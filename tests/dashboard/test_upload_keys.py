"""The data layer's caches key uploaded files by names and content digests
(:class:`dashboard.data.UploadFiles`): the same results and hits as keying by their bytes."""

from __future__ import annotations

import hashlib
import pickle

import streamlit as st

from dashboard.data import UploadFiles, samples, uploads_from_widget
from dashboard.data._cache import cache_data

A = (("a.tsv", b"x\t1\n" * 1000), ("b.tsv", b"y\t2\n" * 10))


def test_the_key_is_each_files_name_and_digest():
    files = UploadFiles(A)
    assert files == A and isinstance(files, tuple)
    assert files.key == tuple(
        (name, hashlib.blake2b(data, digest_size=16).digest()) for name, data in A
    )
    assert UploadFiles(A).key == files.key  # identical bytes, identical keys
    assert UploadFiles((A[0], ("b.tsv", b"y\t3\n"))).key != files.key
    assert UploadFiles((("c.tsv", A[0][1]),)).key != UploadFiles((A[0],)).key  # names count


def test_a_pickled_copy_keeps_the_key_without_hashing_again(monkeypatch):
    files = UploadFiles(A)
    data = pickle.dumps(files)

    def no_hash(*args, **kwargs):
        raise AssertionError("hashed again")

    monkeypatch.setattr(hashlib, "blake2b", no_hash)
    copy = pickle.loads(data)
    assert type(copy) is UploadFiles and copy == files and copy.key == files.key


class _Widget:
    def __init__(self, name, data):
        self.name, self._data = name, data

    def getvalue(self):
        return self._data


def test_widget_and_sample_files_carry_keys():
    files = uploads_from_widget([_Widget(*A[0]), _Widget(*A[1])])
    assert type(files) is UploadFiles and files == A and files.key == UploadFiles(A).key
    assert uploads_from_widget(None) == ()
    qe = samples.sample_files("qe")
    assert type(qe) is UploadFiles and qe.key == UploadFiles(tuple(qe)).key


def test_cached_calls_hit_and_miss_as_keyed_by_content():
    calls = []

    @cache_data(show_spinner=False)
    def sizes(uploads):
        calls.append(1)
        return [len(data) for _, data in uploads]

    st.cache_data.clear()
    assert sizes(UploadFiles(A)) == [4000, 40]
    assert sizes(UploadFiles(tuple(A))) == [4000, 40]  # other objects, same content: a hit
    assert len(calls) == 1
    assert sizes(A) == [4000, 40]  # a plain tuple is hashed by its bytes: its own entry
    assert sizes(UploadFiles((A[0], ("b.tsv", b"z")))) == [4000, 1]  # other bytes: a miss
    assert len(calls) == 3
    # only the key is hashed: files made with another's key share its entry
    assert sizes(UploadFiles((A[0], ("b.tsv", b"z")), key=UploadFiles(A).key)) == [4000, 40]
    assert len(calls) == 3
