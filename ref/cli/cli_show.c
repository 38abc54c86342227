/*
 * cli_show.c -- dmlref show: a case printed the way DirectML's operator
 * pages print their examples, so a case can be read against its page.
 */
#include "dmlcase.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: dmlref show CASE.json [--max-memory N] [--max-work N]\n"
    "\n"
    "Print the case the way DirectML's operator pages print their examples: the\n"
    "operator and its attributes, then every tensor as\n"
    "  InputTensor: (Sizes:{4}, DataType:FLOAT32)\n"
    "  [11,12,13,14]\n"
    "with nested brackets per dimension, Strides in the header when given, and the\n"
    "expected values for outputs.  Values are printed as a case file holds them: exact\n"
    "numbers, else bit patterns (0x7fc00000).  Tensors of more than 10000 elements\n"
    "show their header only; an output given by its SHA-256 shows the digest and its\n"
    "sampled elements.\n"
    "\n"
    "%s"
    "\n";

enum { SHOW_MAX_ELEMENTS = 10000 };

static void print_header(const dmlc_case_tensor *t)
{
    const dmlr_tensor_desc *d = t->desc;
    const char *dt = dmlr_data_type_name(d->DataType);
    printf("%s: (Sizes:{", t->name);
    for (uint32_t k = 0; k < d->DimensionCount; k++)
        printf("%s%u", k ? "," : "", d->Sizes[k]);
    if (d->Strides) {
        printf("}, Strides:{");
        for (uint32_t k = 0; k < d->DimensionCount; k++)
            printf("%s%u", k ? "," : "", d->Strides[k]);
    }
    printf("}, DataType:%s", dt ? dt : "?");
    if (d->TotalTensorSizeInBytes)
        printf(", TotalTensorSizeInBytes:%llu", (unsigned long long)d->TotalTensorSizeInBytes);
    if (d->Flags)
        printf(", Flags:OWNED_BY_DML");
    if (d->GuaranteedBaseOffsetAlignment)
        printf(", GuaranteedBaseOffsetAlignment:%u", d->GuaranteedBaseOffsetAlignment);
    printf(")\n");
}

static void print_value(const dmlc_case_tensor *t, const unsigned char *elem)
{
    char buf[DMLC_VALUE_MAX];
    dmlc_value_format(t->desc->DataType, elem, buf, sizeof buf);
    fputs(buf, stdout);
}

/* [[1,2],\n [3,4]]: one line per innermost row, indented under its bracket. */
static void print_block(const dmlc_case_tensor *t, const unsigned char *packed, uint32_t d,
                        uint64_t *pos)
{
    putchar('[');
    for (uint64_t i = 0; i < t->sizes[d]; i++) {
        if (i && d + 1 < t->rank)
            printf(",\n%*s", (int)(d + 1), "");
        else if (i)
            putchar(',');
        if (d + 1 < t->rank)
            print_block(t, packed, d + 1, pos);
        else
            print_value(t, packed + (*pos)++ * t->esize);
    }
    putchar(']');
}

static void print_coord(const dmlc_case_tensor *t, uint64_t flat)
{
    uint64_t c[DMLR_MAX_RANK];
    for (uint32_t d = t->rank; d-- > 0;) {
        c[d] = flat % t->sizes[d];
        flat /= t->sizes[d];
    }
    putchar('[');
    for (uint32_t d = 0; d < t->rank; d++)
        printf("%s%llu", d ? "," : "", (unsigned long long)c[d]);
    putchar(']');
}

static void print_notes(const dmlc_case_tensor *t)
{
    bool any = false;
    for (uint64_t e = 0; t->implementation_defined && e < t->count; e++) {
        if (!t->implementation_defined[e])
            continue;
        printf(any ? ", " : "implementation_defined (not compared): ");
        print_coord(t, e);
        any = true;
    }
    if (any)
        putchar('\n');
    for (uint32_t i = 0; i < t->legal_count; i++) {
        const unsigned char *v = t->legal[i].values;
        printf("legal_values at ");
        print_coord(t, t->legal[i].element);
        printf(": ");
        for (uint32_t k = 0; k < t->legal[i].count; k++) {
            printf(k ? " or " : "");
            print_value(t, v + k * t->esize);
        }
        putchar('\n');
    }
}

/* A digest output: the hash and the sampled elements, the only values the case holds. */
static void print_digest(const dmlc_case_tensor *t)
{
    const unsigned char *v = t->sample_values;
    printf("(%llu elements, SHA-256 %s)\n", (unsigned long long)t->count, t->sha256);
    for (uint32_t k = 0; k < t->sample_count; k++) {
        printf(k ? ", " : "samples: ");
        print_coord(t, t->sample_elements[k]);
        printf(" ");
        print_value(t, v + (size_t)k * t->esize);
    }
    if (t->sample_count)
        putchar('\n');
}

static bool print_tensor(const dmlc_case_tensor *t)
{
    unsigned char *packed;
    uint64_t pos = 0;
    print_header(t);
    if (t->sha256)
        print_digest(t);
    if (!t->data)
        return true;
    if (t->sidecar)
        printf("(from %s)\n", t->sidecar);
    if (t->generated)
        printf("(generated: %s)\n", t->generated);
    if (t->count > SHOW_MAX_ELEMENTS) {
        printf("(%llu elements, not shown)\n", (unsigned long long)t->count);
        return true;
    }
    if (!(packed = malloc((size_t)(t->count * t->esize))))
        return false;
    if (t->is_output)
        memcpy(packed, t->data, (size_t)(t->count * t->esize));
    else
        dmlc_case_gather(t, t->data, packed);
    print_block(t, packed, 0, &pos);
    putchar('\n');
    free(packed);
    if (t->is_output)
        print_notes(t);
    return true;
}

static bool print_attribute(void *ctx, const dmlr_member *m)
{
    const char *name = m->field->name;
    (void)ctx;
    if (m->field->kind == DMLR_FIELD_UINT)
        printf("%s: %u\n", name, m->value);
    else if (m->field->kind == DMLR_FIELD_AXIS_DIRECTION)
        printf("%s: DML_AXIS_DIRECTION_%s\n", name,
               m->value == DMLR_AXIS_DIRECTION_DECREASING ? "DECREASING" : "INCREASING");
    else if (m->field->kind == DMLR_FIELD_BOOL)
        printf("%s: %s\n", name, m->value ? "true" : "false");
    return true;
}

static void print_attributes(const dmlc_case *c)
{
    dmlr_visit_desc(c->info, c->op.Desc, print_attribute, NULL);
}

int cli_show(int argc, char **argv)
{
    const char *file = NULL;
    dmlc_error why;
    dmlc_case *c;
    dmlc_case_rc rc;
    bool ok = true;
    dmlc_load_options opt = {0, 0};
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            printf(help, cli_limit_help);
            fputs(cli_exit_codes, stdout);
            return 0;
        }
        if ((r = cli_limit_option("show", argc, argv, &i, &opt)) == 2)
            return 2;
        if (r == 1)
            continue;
        if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("show", "unknown option %s", argv[i]);
        if (file)
            return cli_usage_error("show", "one case file at a time");
        file = argv[i];
    }
    if (!file)
        return cli_usage_error("show", "no case file given");
    if ((rc = dmlc_case_load_opts(file, &opt, &c, &why)) != DMLC_CASE_OK) {
        fprintf(stderr, "%s\n", why.message);
        return rc;
    }
    printf("%s\n", c->name);
    if (c->description[0])
        printf("%s\n", c->description);
    for (uint32_t i = 0; i < c->tag_count; i++)
        printf("%s%s%s", i ? ", " : "tags: ", c->tags[i], i + 1 == c->tag_count ? "\n" : "");
    printf("\nDML_OPERATOR_%s (min_feature_level %s", c->info->name,
           dmlr_feature_level_name(c->min_feature_level));
    if (c->feature_level_given)
        printf(", feature_level %s", dmlr_feature_level_name(c->feature_level));
    printf(")\n");
    print_attributes(c);
    if (c->in_place)
        printf("in_place: OutputTensor is bound to InputTensor's buffer\n");
    if (c->expect_error)
        printf("expect_error: %s%s%s\n", dmlr_status_name(c->expect_status),
               c->expect_message ? ": " : "", c->expect_message ? c->expect_message : "");
    for (uint32_t i = 0; ok && i < c->tensor_count; i++) {
        putchar('\n');
        ok = print_tensor(&c->tensors[i]);
    }
    dmlc_case_free(c);
    if (!ok) {
        fflush(stdout);
        fprintf(stderr, "%s: out of memory\n", file);
        return 3;
    }
    return 0;
}
