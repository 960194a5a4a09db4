/* order_internal.h — the ordering modules' narrow interface: plain arrays
 * in, perm[new] = old out. Every module takes the lower triangle of a
 * symmetric pattern as CSC (colptr n + 1, rowind sorted within a column; the
 * diagonal may be present and is ignored) so it depends on no sylva struct.
 * All return a sylva_status with a message (sylva__fail) on failure.
 */
#ifndef SYLVA_ORDER_INTERNAL_H
#define SYLVA_ORDER_INTERNAL_H

#include <stdint.h>

#include "sylva.h"

/* Full symmetric adjacency (both triangles, no diagonal, no duplicates when
 * the input has none), 32-bit as METIS's idx_t and Scotch's SCOTCH_Num are in
 * Debian's builds: xadj (n + 1), adj (xadj[n]). Refused with
 * SYLVA_ERR_ORDERING when n or 2·offdiag do not fit in 31 bits. */
int sylva__adjacency32(int64_t n, const int64_t *colptr, const int64_t *rowind, const char *who,
                       int32_t **xadj, int32_t **adj);

/* Nested dissection whose top levels are computed on the whole graph
 * (METIS_ComputeVertexSeparator) and whose independent parts are ordered
 * concurrently on `nthreads` threads (METIS_NodeND on the leaves). The result
 * does not depend on nthreads or on timing. */
int sylva__order_nd_parallel(int64_t n, const int64_t *colptr, const int64_t *rowind, int nthreads,
                             int64_t *perm);

/* A Scotch strategy string with every leaf's column-block amalgamation
 * off: each cmin=N becomes cmin=0, in place; returns 1 when one changed
 * (order_scotch.c; bench-ptscotch does the same to PT-Scotch's). */
int sylva__strategy_cmin0(char *text);

/* Scotch's nested dissection (SCOTCH_graphOrder, default strategy) on a
 * context of `nthreads` threads, deterministic mode. */
int sylva__order_scotch(int64_t n, const int64_t *colptr, const int64_t *rowind, int nthreads,
                        int64_t *perm);

/* Threads for an ordering: `requested` when positive, else the CPUs this
 * process may run on. */
int sylva__order_threads(int requested);

/* SYLVA_ORDERING_AUTO resolved for a graph of n vertices and nthreads
 * threads (order_auto.c): a sylva_ordering other than AUTO. */
int sylva__order_auto(int64_t n, int nthreads);

/* Concurrent METIS calls (metis_threads.c). sylva__metis_rng_private gives
 * libmetis a per-thread random stream and returns 1, or returns 0 when it
 * cannot; then sylva__metis_lock/unlock serialize METIS calls (otherwise
 * they do nothing). A parallel region that calls METIS is bracketed by
 * sylva__metis_parallel_begin/end (signal handlers saved and restored). */
int sylva__metis_rng_private(void);
void sylva__metis_lock(void);
void sylva__metis_unlock(void);
void sylva__metis_parallel_begin(void);
void sylva__metis_parallel_end(void);

#endif
