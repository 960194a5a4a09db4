/* metis_threads.c — what it takes to call METIS from several threads at
 * once and still get reproducible orderings.
 * 1. Random numbers. Debian's METIS 5.1 draws them from libc's rand(), one
 *    stream for the whole process, and reseeds it with srand(seed) at the
 *    start of every API call; concurrent calls would interleave their draws
 *    and the result would depend on thread timing. We redirect libmetis's
 *    own imports of rand and srand (its GOT slots, nothing else in the
 *    process) to a per-thread generator running glibc's algorithm
 *    (random_r, TYPE_3), so each METIS call draws exactly the sequence it
 *    draws alone. When the slots cannot be found (METIS linked statically,
 *    another libc, a METIS with its own generator) or SYLVA_METIS_SHARED_RNG
 *    is set, sylva__metis_lock serializes METIS calls instead.
 * 2. Signals. Each METIS call installs its own SIGABRT/SIGTERM handlers and
 *    restores the previous ones on return; overlapping calls can leave
 *    METIS's installed. sylva__metis_parallel_begin/end save and restore
 *    them around a parallel region (counted, for overlapping regions).
 * Nothing here fails: the fallback is always correct, only slower.
 */
#include <dlfcn.h>
#include <link.h>
#include <metis.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "order_internal.h"

static __thread struct random_data tls_rng;
static __thread int32_t tls_state[32]; /* 128 bytes: glibc's TYPE_3, as rand() uses */
static __thread int tls_ready;

static void private_srand(unsigned seed)
{
    if (!tls_ready) {
        memset(&tls_rng, 0, sizeof tls_rng);
        initstate_r(seed, (char *)tls_state, sizeof tls_state, &tls_rng);
        tls_ready = 1;
    } else {
        srandom_r(seed, &tls_rng);
    }
}

static int private_rand(void)
{
    if (!tls_ready) private_srand(1); /* rand() before any srand() is seeded with 1 */
    int32_t r;
    random_r(&tls_rng, &r);
    return r;
}

/* The GNU_RELRO range of the object at `base`: slots there are read-only. */
typedef struct relro_query {
    ElfW(Addr) base, lo, hi;
} relro_query;

static int find_relro(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    relro_query *q = arg;
    if (info->dlpi_addr != q->base) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
            q->lo = q->base + info->dlpi_phdr[i].p_vaddr;
            q->hi = q->lo + info->dlpi_phdr[i].p_memsz;
        }
    return 1;
}

static int write_slot(void **slot, void *fn, const relro_query *q)
{
    ElfW(Addr) a = (ElfW(Addr))slot;
    if (a < q->lo || a >= q->hi) {
        __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
        return 1;
    }
    long page = sysconf(_SC_PAGESIZE);
    void *p = (void *)(a & ~(ElfW(Addr))(page - 1));
    if (mprotect(p, (size_t)page, PROT_READ | PROT_WRITE)) return 0;
    __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
    mprotect(p, (size_t)page, PROT_READ);
    return 1;
}

/* Dynamic-section pointers are absolute once ld.so has relocated them, and
 * offsets where it leaves the section read-only. */
static const void *dyn_ptr(ElfW(Addr) p, ElfW(Addr) base) { return (const void *)(p < base ? base + p : p); }

static int patch_metis(void)
{
    Dl_info info;
    struct link_map *lm = NULL;
    if (!dladdr1((void *)&METIS_NodeND, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm || !lm->l_name ||
        !strstr(lm->l_name, "libmetis"))
        return 0;
    ElfW(Addr) base = lm->l_addr;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const ElfW(Rela) *tabs[2] = {NULL, NULL};
    size_t sizes[2] = {0, 0};
    for (const ElfW(Dyn) *d = lm->l_ld; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_SYMTAB) symtab = dyn_ptr(d->d_un.d_ptr, base);
        else if (d->d_tag == DT_STRTAB) strtab = dyn_ptr(d->d_un.d_ptr, base);
        else if (d->d_tag == DT_JMPREL) tabs[0] = dyn_ptr(d->d_un.d_ptr, base);
        else if (d->d_tag == DT_PLTRELSZ) sizes[0] = d->d_un.d_val;
        else if (d->d_tag == DT_RELA) tabs[1] = dyn_ptr(d->d_un.d_ptr, base);
        else if (d->d_tag == DT_RELASZ) sizes[1] = d->d_un.d_val;
        else if (d->d_tag == DT_PLTREL && d->d_un.d_val != DT_RELA) return 0;
    }
    if (!symtab || !strtab) return 0;
    relro_query q = {base, 0, 0};
    dl_iterate_phdr(find_relro, &q);
    void **rand_slot = NULL, **srand_slot = NULL;
    for (int t = 0; t < 2; t++)
        for (size_t k = 0; tabs[t] && k < sizes[t] / sizeof(ElfW(Rela)); k++) {
            const ElfW(Rela) *r = &tabs[t][k];
            const char *name = strtab + symtab[ELF64_R_SYM(r->r_info)].st_name;
            if (!strcmp(name, "rand")) rand_slot = (void **)(base + r->r_offset);
            else if (!strcmp(name, "srand")) srand_slot = (void **)(base + r->r_offset);
        }
    if (!rand_slot || !srand_slot) return 0;
    /* srand first: a METIS call in flight keeps a consistent global stream. */
    return write_slot(srand_slot, (void *)private_srand, &q) && write_slot(rand_slot, (void *)private_rand, &q);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int patched;
static pthread_mutex_t serial = PTHREAD_MUTEX_INITIALIZER;

static void install(void) { patched = getenv("SYLVA_METIS_SHARED_RNG") ? 0 : patch_metis(); }

static pthread_mutex_t region_lock = PTHREAD_MUTEX_INITIALIZER;
static int regions;
static struct sigaction saved_abrt, saved_term;

void sylva__metis_parallel_begin(void)
{
    sylva__metis_rng_private(); /* before any thread calls METIS */
    pthread_mutex_lock(&region_lock);
    if (regions++ == 0) {
        sigaction(SIGABRT, NULL, &saved_abrt);
        sigaction(SIGTERM, NULL, &saved_term);
    }
    pthread_mutex_unlock(&region_lock);
}

void sylva__metis_parallel_end(void)
{
    pthread_mutex_lock(&region_lock);
    if (--regions == 0) {
        sigaction(SIGABRT, &saved_abrt, NULL);
        sigaction(SIGTERM, &saved_term, NULL);
    }
    pthread_mutex_unlock(&region_lock);
}

int sylva__metis_rng_private(void)
{
    pthread_once(&once, install);
    return patched;
}

void sylva__metis_lock(void)
{
    if (!sylva__metis_rng_private()) pthread_mutex_lock(&serial);
}

void sylva__metis_unlock(void)
{
    if (!sylva__metis_rng_private()) pthread_mutex_unlock(&serial);
}
