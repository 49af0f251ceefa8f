"""Undirected edge lists as adjacency arrays (compressed sparse rows), for the batch's stack tree and block-cut tree."""

from __future__ import annotations

from .._compile.kernels import inner

__all__ = ["edge_csr"]


@inner
def edge_csr(ns, ne, eu, ev, deg, adj):
    """The undirected edges ``(eu[j], ev[j])`` of ``ns`` nodes as adjacency lists:
    node ``i``'s edge ids are ``adj[deg[i]:deg[i + 1]]`` (``deg``: ``ns + 1``
    items, ``adj``: ``2 * ne``; both the caller's)."""
    for i in range(ns + 1):
        deg[i] = 0
    for j in range(ne):
        deg[eu[j] + 1] += 1
        deg[ev[j] + 1] += 1
    for i in range(ns):
        deg[i + 1] += deg[i]
    for j in range(ne):                 # adj holds edge ids; deg[i] ends as i's start
        adj[deg[eu[j]]] = j
        deg[eu[j]] += 1
        adj[deg[ev[j]]] = j
        deg[ev[j]] += 1
    for i in range(ns - 1, -1, -1):
        deg[i + 1] = deg[i]
    deg[0] = 0

