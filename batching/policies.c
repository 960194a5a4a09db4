/* policies.c — the registry of batching policies: a policy is one file with
 * one function (sylva__policy_fn, batching.h) and one line in this table.
 * The command line's usage text and errors, the public name list
 * (sylva_policy_name) and the CTest policy list (read from this file by
 * tests/CMakeLists.txt: keep one `{"name", ...}` entry per line) all come
 * from here.
 */
#include <string.h>

#include "batching.h"

const char sylva__policy_default[] = "subtree";

static const sylva__policy registry[] = {
    {"none", "one task per front (the unbatched reference)", sylva__policy_none, 0},
    {"level", "small fronts of one tree level per batch (chunks of batch_flops)", sylva__policy_level, 0},
    {"sized", "like level, but batches of fronts of similar size", sylva__policy_sized, 0},
    {"subtree", "whole small subtrees per task, then level batches above them", sylva__policy_subtree, 0},
    {"ready", "dynamic: batches cut at run time from fronts whose children are done", sylva__policy_ready, 1},
};

const sylva__policy *sylva__policy_at(int i)
{
    int count = (int)(sizeof registry / sizeof registry[0]);
    return i >= 0 && i < count ? &registry[i] : NULL;
}

int sylva__policy_is_dynamic(const char *name)
{
    const sylva__policy *p = sylva__policy_find(name);
    return p && p->dynamic;
}

const sylva__policy *sylva__policy_find(const char *name)
{
    if (!name) name = sylva__policy_default;
    for (int i = 0; sylva__policy_at(i); i++)
        if (strcmp(registry[i].name, name) == 0) return &registry[i];
    return NULL;
}
