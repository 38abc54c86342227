#!/bin/sh
# doc-links.sh FILE.md... -- every file of the checkout these Markdown files link
# to, and what the linked .md files link to in turn, as paths relative to the
# checkout's root, one per line (the files themselves first): what `make
# install` copies into share/doc/dmlref so that no installed page has a broken
# link.  Links with a scheme (https:) or only an #anchor are not files; nor
# are measurements (.txt, .diff, folders: raw results beside docs/performance.md), which
# stay in the checkout.
set -eu
seen=""
queue="$*"
while [ -n "$queue" ]; do
    set -- $queue
    f=$1
    shift
    queue="$*"
    case " $seen " in *" $f "*) continue ;; esac
    [ -f "$f" ] || continue
    seen="$seen $f"
    echo "$f"
    case $f in *.md) ;; *) continue ;; esac
    case $f in */*) dir=${f%/*}/ ;; *) dir= ;; esac
    for l in $(grep -o '](\([^)#: ]*\)' "$f" | sed -e 's/^](//' -e 's|^\./||' | sort -u); do
        p=$dir$l
        while :; do # a/b/../c -> a/c (the targets stay inside the checkout)
            case $p in
                ../* | /*) break ;;
                */../*) q=${p%%/../*} && r=${p#*/../} && case $q in */*) p=${q%/*}/$r ;; *) p=$r ;; esac ;;
                *) break ;;
            esac
        done
        case $p in ../* | /* | *.txt | *.diff | */) continue ;; esac
        queue="$queue $p"
    done
done
