/*
 * cmd_reply.c -- response.json must have the documented shape
 * (docs/cmd-protocol.md) before any of it is believed: an object keyed by id
 * instead of an array, a status that is not a string, an id given twice are
 * a program's bugs, and reading past them silently judged a batch as passed.
 */
#include "cmd.h"

#include <stdio.h>
#include <string.h>

static const char *const statuses[] = {"OK", "NOT_SUPPORTED", "INVALID_ARGUMENT", "ERROR", NULL};
static const char *const actions[] = {"run", "create", NULL};
static const char *const entry_members[] = {"id", "status", "message", "action", NULL};
static const char *const root_members[] = {"format", "cases", NULL};

static const char *kind(const cJSON *v)
{
    return !v                  ? "nothing"
           : cJSON_IsObject(v) ? "an object"
           : cJSON_IsArray(v)  ? "an array"
           : cJSON_IsString(v) ? "a string"
           : cJSON_IsNumber(v) ? "a number"
           : cJSON_IsBool(v)   ? "a boolean"
           : cJSON_IsNull(v)   ? "null"
                               : "something else";
}

static bool listed(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

/* The words of list joined by sep, for messages. */
static const char *joined(const char *const *list, const char *sep, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (size_t k = 0, n = 0; list[k] && n < cap; k++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", k ? sep : "", list[k]);
    return buf;
}

/* Every member of o is one of names; else msg names the first stranger. */
static bool members_known(const cJSON *o, const char *const *names, const char *where,
                          const char *file, char *msg, size_t cap)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, o)
        if (!listed(m->string, names)) {
            char known[96];
            snprintf(msg, cap, "%s: %s.%.100s: unknown member (expected only %s)", file, where,
                     m->string, joined(names, ", ", known, sizeof known));
            return false;
        }
    return true;
}

/* Member key of o: absent (when optional) or a string in list (NULL: any string). */
static bool string_member(const cJSON *o, const char *key, bool optional,
                          const char *const *list, const char *where, const char *file,
                          char *msg, size_t cap)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v && optional)
        return true;
    if (!cJSON_IsString(v)) {
        snprintf(msg, cap, "%s: %s.%s: expected a string, got %s", file, where, key, kind(v));
        return false;
    }
    if (list && !listed(v->valuestring, list)) {
        char known[96];
        snprintf(msg, cap, "%s: %s.%s: expected %s, got \"%.100s\"", file, where, key,
                 joined(list, " or ", known, sizeof known), v->valuestring);
        return false;
    }
    return true;
}

bool dmlcts_cmd_check_response(const cJSON *resp, const char *file, char *msg, size_t cap)
{
    static const char *const format[] = {DMLCTS_RESPONSE_FORMAT, NULL};
    const cJSON *cases, *e, *f;
    char where[48];
    int i = 0;
    if (!cJSON_IsObject(resp)) {
        snprintf(msg, cap, "%s: $: expected an object, got %s", file, kind(resp));
        return false;
    }
    if (!members_known(resp, root_members, "$", file, msg, cap) ||
        !string_member(resp, "format", false, format, "$", file, msg, cap))
        return false;
    cases = cJSON_GetObjectItemCaseSensitive(resp, "cases");
    if (!cJSON_IsArray(cases)) {
        snprintf(msg, cap, "%s: $.cases: expected an array of {\"id\", \"status\"} entries, got %s",
                 file, kind(cases));
        return false;
    }
    cJSON_ArrayForEach(e, cases) {
        snprintf(where, sizeof where, "$.cases[%d]", i++);
        if (!cJSON_IsObject(e)) {
            snprintf(msg, cap, "%s: %s: expected an object, got %s", file, where, kind(e));
            return false;
        }
        if (!members_known(e, entry_members, where, file, msg, cap) ||
            !string_member(e, "id", false, NULL, where, file, msg, cap) ||
            !string_member(e, "status", false, statuses, where, file, msg, cap) ||
            !string_member(e, "message", true, NULL, where, file, msg, cap) ||
            !string_member(e, "action", true, actions, where, file, msg, cap))
            return false;
        for (f = cases->child; f != e; f = f->next)
            if (strcmp(cJSON_GetObjectItemCaseSensitive(f, "id")->valuestring,
                       cJSON_GetObjectItemCaseSensitive(e, "id")->valuestring) == 0) {
                snprintf(msg, cap, "%s: %s.id: \"%.100s\" is given twice", file, where,
                         cJSON_GetObjectItemCaseSensitive(e, "id")->valuestring);
                return false;
            }
    }
    return true;
}
