/* api.h — the shape of the public handles behind include/sylva.h, shared by
 * the api/ files (the only layer that defines sylva_* entry points; each is
 * a thin wrapper over runtime/, batching/, frontal/ or io/).
 *
 * An analysis owns its tree and plan (built once per pattern); a factor
 * owns its numeric values and points at the analysis it was made from,
 * which must outlive it.
 */
#ifndef SYLVA_API_H
#define SYLVA_API_H

#include "runtime.h"

struct sylva_analysis {
    sylva__tree *tree;
    sylva__plan *plan;
    sylva__rt_plan *rt;
    sylva__plan_stats stats;
    sylva_options opts;
    char policy[32];
    double seconds[4];          /* ordering, symbolic, maps, plan */
    sylva_ordering ordering;    /* the ordering used (AUTO resolved) */
    int64_t nnz_A;              /* A's stored entries and */
    uint64_t pattern_hash;      /* pattern fingerprint (sylva_analysis_save) */
};

/* Tell the options' progress callback, if any. */
static inline void sylva__api_progress(const sylva_options *o, const char *phase, double fraction)
{
    if (o->progress) o->progress(o->progress_arg, phase, fraction);
}

struct sylva_factor {
    const sylva_analysis_t *an;
    sylva__numeric *num;
};

/* SYLVA_OK when A's arrays are consistent (not a full validation: io/ did
 * that when A was made). */
int sylva__api_check_matrix(const sylva_matrix *A);

#endif
