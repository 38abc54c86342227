/*
 * check_files.c -- how `dmlref check` and dmlcts find case files under a
 * directory (ref/case/files.c, dmlc_find_case_files): recursive, *.json but
 * not *.schema.json, hidden entries and symlinked directories left out, an
 * unreadable directory handed to the caller; and how a command's files go
 * into place all or nothing (dmlc_outputs).  Checked against trees built here
 * in temporary directories.
 */
#include "testutil.h"
#include "dmlcase.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void touch(const char *rel)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{}", f);
    fclose(f);
}

static void mkdir_in(const char *rel)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    ck_assert_int_eq(mkdir(path, 0700), 0);
}

/* root/a.json, root/sub/b.json, root/sub/deeper/c.json and things to leave out. */
static void build_tree(void)
{
    strcpy(root, "/tmp/check_files.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    touch("a.json");
    touch("notes.txt");
    touch("case.schema.json");
    mkdir_in("sub");
    touch("sub/b.json");
    mkdir_in("sub/deeper");
    touch("sub/deeper/c.json");
    touch(".hidden.json");
    mkdir_in(".git");
    touch(".git/d.json");
    char link[256];
    snprintf(link, sizeof link, "%s/sub/loop", root);
    ck_assert_int_eq(symlink(root, link), 0); /* a loop, were it followed */
}

static void remove_tree(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool never_called(void *ctx, const dmlc_error *e)
{
    (void)ctx, (void)e;
    ck_abort_msg("no directory here is unreadable");
    return false;
}

START_TEST(case_files_are_found_recursively_and_schema_files_left_out)
{
    dmlc_paths p = {NULL, 0, 0};
    char want[3][256];
    build_tree();
    ck_assert(dmlc_find_case_files(root, &p, never_called, NULL, NULL));
    ck_assert_uint_eq(p.count, 3);
    qsort(p.items, p.count, sizeof *p.items, by_name);
    snprintf(want[0], sizeof want[0], "%s/a.json", root);
    snprintf(want[1], sizeof want[1], "%s/sub/b.json", root);
    snprintf(want[2], sizeof want[2], "%s/sub/deeper/c.json", root);
    for (int i = 0; i < 3; i++)
        ck_assert_str_eq(p.items[i], want[i]);
    dmlc_paths_free(&p);
    remove_tree();
}
END_TEST

START_TEST(hidden_entries_and_symlinked_directories_are_left_out)
{
    dmlc_paths p = {NULL, 0, 0};
    build_tree();
    ck_assert(dmlc_find_case_files(root, &p, never_called, NULL, NULL));
    for (size_t i = 0; i < p.count; i++) {
        ck_assert_ptr_null(strstr(p.items[i], "/."));
        ck_assert_ptr_null(strstr(p.items[i], "/loop/"));
    }
    dmlc_paths_free(&p);
    remove_tree();
}
END_TEST

START_TEST(a_trailing_slash_gives_no_double_slash)
{
    dmlc_paths p = {NULL, 0, 0};
    char dir[80], want[128];
    build_tree();
    snprintf(dir, sizeof dir, "%s/sub/deeper/", root);
    snprintf(want, sizeof want, "%s/sub/deeper/c.json", root);
    ck_assert(dmlc_find_case_files(dir, &p, never_called, NULL, NULL));
    ck_assert_uint_eq(p.count, 1);
    ck_assert_str_eq(p.items[0], want);
    dmlc_paths_free(&p);
    remove_tree();
}
END_TEST

typedef struct seen {
    int calls, err;
    char message[DMLC_CASE_MSG_MAX];
    bool answer;
} seen;

static bool record(void *ctx, const dmlc_error *e)
{
    seen *s = ctx;
    s->calls++;
    s->err = e->errnum;
    snprintf(s->message, sizeof s->message, "%s", e->message);
    return s->answer;
}

START_TEST(an_unreadable_directory_goes_to_the_caller_who_decides)
{
    dmlc_paths p = {NULL, 0, 0};
    seen carry_on = {0, 0, "", true}, stop = {0, 0, "", false};
    ck_assert(dmlc_find_case_files("/nonexistent/cases", &p, record, &carry_on, NULL));
    ck_assert_int_eq(carry_on.calls, 1);
    ck_assert_int_eq(carry_on.err, ENOENT);
    ck_assert_str_eq(carry_on.message,
                     "/nonexistent/cases: cannot read the directory: No such file or directory");
    dmlc_error why;
    ck_assert(!dmlc_find_case_files("/nonexistent/cases", &p, record, &stop, &why));
    ck_assert_int_eq(stop.calls, 1);
    ck_assert_int_eq(why.errnum, ENOENT); /* stopped: the caller gets the same error */
    ck_assert_int_eq(why.rc, DMLC_CASE_BAD_INPUT);
    ck_assert_uint_eq(p.count, 0);
    dmlc_paths_free(&p);
}
END_TEST

START_TEST(a_file_that_cannot_be_read_names_its_path_and_the_reason)
{
    dmlc_error why;
    void *bytes = (void *)1;
    size_t len = 1;
    ck_assert(!dmlc_read_file("/nonexistent/case.json", &bytes, &len, &why));
    ck_assert_ptr_null(bytes);
    ck_assert_int_eq(why.errnum, ENOENT);
    ck_assert_int_eq(why.rc, DMLC_CASE_BAD_INPUT);
    ck_assert_str_eq(why.message, "cannot read /nonexistent/case.json: No such file or directory");
    ck_assert(!dmlc_write_file("/nonexistent/out.json", "x", 1, &why));
    ck_assert_str_eq(why.message, "cannot write /nonexistent/out.json: No such file or directory");
    ck_assert(!dmlc_fail_errno(&why, ENOMEM, "x")); /* the machine failed, not the input */
    ck_assert_int_eq(why.rc, DMLC_CASE_INTERNAL);
}
END_TEST

/* The text of root/rel, or "" when it cannot be read. */
static void contents(const char *rel, char *out, size_t cap)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out, 1, cap - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
}

/* The names in root, sorted, each followed by a space. */
static void listing(char *out, size_t cap)
{
    char cmd[160];
    FILE *ls;
    size_t n;
    snprintf(cmd, sizeof cmd, "ls -A '%s' | tr '\\n' ' '", root);
    ck_assert_ptr_nonnull(ls = popen(cmd, "r"));
    n = fread(out, 1, cap - 1, ls);
    out[n] = '\0';
    pclose(ls);
}

/* Write text under the name set gives for root/rel. */
static void add_written(dmlc_outputs *set, const char *rel, const char *text, char paths[][256])
{
    dmlc_error why;
    snprintf(paths[set->count], 256, "%s/%s", root, rel);
    const char *to = dmlc_output_add(set, paths[set->count]);
    ck_assert_ptr_nonnull(to);
    ck_assert_str_ne(to, paths[set->count - 1]); /* a temporary name, not the path */
    ck_assert(dmlc_write_file(to, text, strlen(text), &why));
}

START_TEST(outputs_go_into_place_together)
{
    dmlc_output slot[2];
    dmlc_outputs set = {slot, 0, 2};
    char paths[2][256], text[64];
    const char *failed = NULL;
    strcpy(root, "/tmp/check_outputs.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    touch("a.json"); /* an earlier file, replaced */
    add_written(&set, "a.json", "new a", paths);
    add_written(&set, "b.json", "new b", paths);
    contents("a.json", text, sizeof text);
    ck_assert_str_eq(text, "{}"); /* nothing in place before the commit */
    ck_assert(dmlc_outputs_commit(&set, &failed));
    contents("a.json", text, sizeof text);
    ck_assert_str_eq(text, "new a");
    contents("b.json", text, sizeof text);
    ck_assert_str_eq(text, "new b");
    listing(text, sizeof text);
    ck_assert_str_eq(text, "a.json b.json "); /* no temporary name or held link left */
    remove_tree();
}
END_TEST

START_TEST(a_rename_that_fails_puts_the_earlier_file_back_and_removes_the_new_one)
{
    dmlc_output slot[3];
    dmlc_outputs set = {slot, 0, 3};
    char paths[3][256], text[64];
    const char *failed = NULL;
    strcpy(root, "/tmp/check_outputs.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    touch("a.json");
    add_written(&set, "a.json", "new a", paths);
    add_written(&set, "c.json", "new c", paths);
    add_written(&set, "b.json", "new b", paths);
    mkdir_in("b.json"); /* after the add: only the rename finds it */
    ck_assert(!dmlc_outputs_commit(&set, &failed));
    ck_assert_int_eq(errno, EISDIR);
    ck_assert_str_eq(failed, paths[2]);
    contents("a.json", text, sizeof text);
    ck_assert_str_eq(text, "{}"); /* renamed, then put back */
    listing(text, sizeof text);
    ck_assert_str_eq(text, "a.json b.json "); /* c.json removed, no temporary name left */
    remove_tree();
}
END_TEST

START_TEST(a_folder_and_a_full_set_are_refused_at_once_and_discard_removes_what_was_written)
{
    dmlc_output slot[1];
    dmlc_outputs set = {slot, 0, 1};
    char paths[2][256], text[64];
    strcpy(root, "/tmp/check_outputs.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    mkdir_in("d.json");
    snprintf(paths[1], 256, "%s/d.json", root);
    ck_assert_ptr_null(dmlc_output_add(&set, paths[1]));
    ck_assert_int_eq(errno, EISDIR);
    add_written(&set, "a.json", "new a", paths);
    ck_assert_ptr_null(dmlc_output_add(&set, paths[1])); /* past the caller's storage */
    ck_assert_int_eq(errno, ENOBUFS);
    dmlc_outputs_discard(&set);
    ck_assert_uint_eq(set.count, 0);
    listing(text, sizeof text);
    ck_assert_str_eq(text, "d.json "); /* the written temporary name removed, a.json never there */
    remove_tree();
}
END_TEST

static Suite *files_suite(void)
{
    Suite *s = suite_create("files");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, case_files_are_found_recursively_and_schema_files_left_out);
    tcase_add_test(tc, hidden_entries_and_symlinked_directories_are_left_out);
    tcase_add_test(tc, a_trailing_slash_gives_no_double_slash);
    tcase_add_test(tc, an_unreadable_directory_goes_to_the_caller_who_decides);
    tcase_add_test(tc, a_file_that_cannot_be_read_names_its_path_and_the_reason);
    tcase_add_test(tc, outputs_go_into_place_together);
    tcase_add_test(tc, a_rename_that_fails_puts_the_earlier_file_back_and_removes_the_new_one);
    tcase_add_test(tc, a_folder_and_a_full_set_are_refused_at_once_and_discard_removes_what_was_written);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(files_suite)
