/* test_analysis_file.c — sylva_analysis_save / sylva_analysis_load
 * (argv: SPEC ORDERING DIR). The loaded analysis has the saved one's
 * permutation, ordering, nnz(L) and fronts, and factors to a backward error
 * within c·n·ε; a flipped byte, a file cut short (in the header and in the
 * permutation), a file that is not an analysis, a missing file and a matrix
 * of another pattern (other sizes; same sizes, one entry moved) each fail
 * with their status and a message naming the file. */
#include <unistd.h>

#include "test_util.h"

static int write_bytes(const char *path, const unsigned char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(data, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}

static unsigned char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc(*len + 1);
    if (d && fread(d, 1, *len, f) != *len) {
        free(d);
        d = NULL;
    }
    fclose(f);
    return d;
}

/* Loading path for A fails with status and a message containing want. */
static void expect_fail(const char *path, const sylva_matrix *A, int status, const char *want)
{
    sylva_analysis_t *an = (sylva_analysis_t *)1;
    int st = sylva_analysis_load(path, A, NULL, &an, NULL);
    CHECK(st == status, "%s: status %s, expected %s (%s)", want, sylva_status_name(st),
          sylva_status_name(status), sylva_last_error());
    CHECK(an == NULL, "%s: failed load left a handle", want);
    CHECK(strstr(sylva_last_error(), want) != NULL, "message '%s' lacks '%s'", sylva_last_error(), want);
    CHECK(st == SYLVA_ERR_PATTERN_MISMATCH || strstr(sylva_last_error(), path) != NULL,
          "message '%s' does not name %s", sylva_last_error(), path);
}

static void round_trip(const sylva_matrix *A, const char *ordering, const char *path)
{
    sylva_options o;
    sylva_default_options(&o);
    o.ordering = sylva_ordering_from_name(ordering);
    /* No relaxed amalgamation (not the default): the file must carry it. */
    for (int i = 0; i < 3; i++) o.nrelax[i] = 0, o.zrelax[i] = 0;
    sylva_analysis_t *an = NULL, *bn = NULL;
    sylva_analysis_info ai, bi;
    int st = sylva_analyze(A, &o, &an, &ai);
    CHECK(st == SYLVA_OK, "analyze: %s", sylva_last_error());
    if (st) return;
    CHECK((st = sylva_analysis_save(an, path)) == SYLVA_OK, "save: %s", sylva_last_error());
    sylva_options d;
    sylva_default_options(&d); /* load with defaults: ordering and relaxation from the file */
    sylva_analysis_t *dn = NULL;
    sylva_analysis_info di;
    d.ordering = o.ordering;
    if (!st && sylva_analyze(A, &d, &dn, &di) == SYLVA_OK)
        CHECK(di.fronts != ai.fronts, "the amalgamation settings change nothing here (%lld fronts)",
              (long long)di.fronts);
    sylva_analysis_free(dn);
    d.ordering = SYLVA_ORDERING_AUTO;
    if (!st) st = sylva_analysis_load(path, A, &d, &bn, &bi);
    CHECK(st == SYLVA_OK, "load: %s", sylva_last_error());
    if (!st) {
        CHECK(memcmp(sylva_analysis_perm(an), sylva_analysis_perm(bn), (size_t)A->n * sizeof(int64_t)) == 0,
              "loaded permutation differs");
        CHECK(bi.nnz_L == ai.nnz_L && bi.fronts == ai.fronts && bi.flops == ai.flops,
              "loaded analysis: nnz(L) %lld fronts %lld, saved %lld %lld", (long long)bi.nnz_L,
              (long long)bi.fronts, (long long)ai.nnz_L, (long long)ai.fronts);
        CHECK(bi.ordering == ai.ordering && ai.ordering != SYLVA_ORDERING_AUTO,
              "ordering %s loaded as %s", sylva_ordering_name(ai.ordering), sylva_ordering_name(bi.ordering));
        printf("  %s: saved and loaded: nnz(L) %lld, %lld fronts, ordering %s; ordering %.3f s, load %.3f s\n",
               ordering, (long long)bi.nnz_L, (long long)bi.fronts, sylva_ordering_name(bi.ordering),
               ai.seconds_ordering, bi.seconds);
        sylva_factor_t *F = NULL;
        st = sylva_factorize(bn, A, &F, NULL);
        CHECK(st == SYLVA_OK, "factor with the loaded analysis: %s", sylva_last_error());
        if (!st) {
            double *b = malloc((size_t)A->n * sizeof *b), *x = malloc((size_t)A->n * sizeof *x);
            for (int64_t i = 0; i < A->n; i++) b[i] = x[i] = test_rand();
            CHECK(sylva_solve(F, 1, x, A->n) == SYLVA_OK, "solve: %s", sylva_last_error());
            test_check_solution(A, x, b, 1, "loaded analysis");
            free(b);
            free(x);
        }
        sylva_factor_free(F);
    }
    sylva_analysis_free(bn);
    sylva_analysis_free(an);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_analysis_file SPEC ORDERING DIR\n");
        return 2;
    }
    test_seed();
    sylva_matrix *A = NULL;
    if (test_load(argv[1], &A) || sylva_init(NULL)) {
        fprintf(stderr, "%s: %s\n", argv[1], sylva_last_error());
        return 1;
    }
    char path[1024], bad[1100];
    snprintf(path, sizeof path, "%s/test_analysis_file.%d.sya", argv[3], (int)getpid());
    round_trip(A, argv[2], path);

    size_t len = 0;
    unsigned char *good = read_bytes(path, &len);
    CHECK(good != NULL && len > 100, "cannot reread %s", path);
    if (good) {
        snprintf(bad, sizeof bad, "%s.bad", path);
        unsigned char *d = malloc(len);
        memcpy(d, good, len);
        d[len / 2] ^= 0x10;
        write_bytes(bad, d, len);
        expect_fail(bad, A, SYLVA_ERR_FORMAT, "corrupted");
        write_bytes(bad, good, len / 2);
        expect_fail(bad, A, SYLVA_ERR_FORMAT, "truncated");
        write_bytes(bad, good, 20);
        expect_fail(bad, A, SYLVA_ERR_FORMAT, "truncated");
        write_bytes(bad, good, len - 1);
        expect_fail(bad, A, SYLVA_ERR_FORMAT, "truncated");
        write_bytes(bad, (const unsigned char *)"%%MatrixMarket matrix coordinate real symmetric\n", 48);
        expect_fail(bad, A, SYLVA_ERR_FORMAT, "not a sylva analysis");
        remove(bad);
        expect_fail(bad, A, SYLVA_ERR_IO, "cannot open");
        free(d);
        free(good);
    }
    /* Another pattern, other sizes. */
    sylva_matrix *B = NULL;
    CHECK(sylva_gen_from_spec("lap2d5:7", &B) == SYLVA_OK, "generate lap2d5:7");
    if (B) expect_fail(path, B, SYLVA_ERR_PATTERN_MISMATCH, "another pattern");
    sylva_matrix_free(B);
    /* Same n and nnz, one entry moved: column 0's last entry one row down. */
    int64_t last = A->colptr[1] - 1;
    if (A->colptr[1] - A->colptr[0] >= 2 && A->rowind[last] + 1 < A->n) {
        A->rowind[last]++;
        expect_fail(path, A, SYLVA_ERR_PATTERN_MISMATCH, "same sizes, other entries");
        A->rowind[last]--;
    }
    remove(path);
    sylva_matrix_free(A);
    sylva_finalize();
    return test_exit("test_analysis_file");
}
