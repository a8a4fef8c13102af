"""The Xapian peer of `npm run bench`, driven by bench/engines/xapian.ts over stdin/stdout.

Run as `/usr/bin/python3 xapian-child.py <corpus.jsonl.gz> <limit|-> <field,field,...> <db dir>`
(Debian's python3-xapian). It parses the corpus itself, untimed, with the same rules as
bench/corpus.ts (a repeated _id replaces the earlier document in place; at most <limit> docs), so
no document crosses the pipe and every figure it reports is timed inside this process: one JSON
line per command read from stdin, one JSON line of answer on stdout.

Indexing: an on-disk WritableDatabase (glass), each searched field through a TermGenerator with
the English stemmer (STEM_ALL: stemmed terms only, as FTS5's porter tokenizer), a position gap
between fields, the document's _id kept as Xapian's documents keep it (the unique `Q` id term and
the document data, so a hit can name its document, as Yarrow's `_id` and FTS5's `_id` column do),
one commit at the end. Queries: the stemmed terms OR'ed or AND'ed, BM25 (Xapian's
default weighting), top 10 from Enquire.get_mset.
"""
import gzip
import json
import resource
import sys
import time

import xapian


def rss_bytes():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def load(path, limit):
    docs = []
    row_of_id = {}
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        for line in f:
            if not line.strip():
                continue
            doc = json.loads(line)
            doc_id = doc.get('_id')
            seen = row_of_id.get(doc_id) if isinstance(doc_id, str) else None
            if seen is not None:
                docs[seen] = doc
                continue
            if isinstance(doc_id, str):
                row_of_id[doc_id] = len(docs)
            docs.append(doc)
            if limit is not None and len(docs) >= limit:
                break
    return docs


def text_of(doc, field):
    """bench/corpus.ts textOf: '' when missing, arrays joined by spaces."""
    value = doc.get(field)
    if value is None:
        return ''
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ' '.join(v if isinstance(v, str) else json.dumps(v) for v in value)
    if isinstance(value, bool):
        return 'true' if value else 'false'
    return str(value)


def main():
    path, limit_arg, fields_arg, db_dir = sys.argv[1:5]
    limit = None if limit_arg == '-' else int(limit_arg)
    fields = fields_arg.split(',')
    docs = load(path, limit)
    rss_after_load = rss_bytes()
    stemmer = xapian.Stem('english')
    db = None
    enquire = None

    def reply(obj):
        sys.stdout.write(json.dumps(obj) + '\n')
        sys.stdout.flush()

    reply({'ready': True, 'docs': len(docs)})
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd['op']
        if op == 'index':
            cpu_start = time.process_time()
            start = time.perf_counter()
            db = xapian.WritableDatabase(db_dir, xapian.DB_CREATE_OR_OPEN)
            tg = xapian.TermGenerator()
            tg.set_stemmer(stemmer)
            tg.set_stemming_strategy(xapian.TermGenerator.STEM_ALL)
            for doc in docs:
                xdoc = xapian.Document()
                tg.set_document(xdoc)
                for field in fields:
                    tg.index_text(text_of(doc, field))
                    tg.increase_termpos(100)
                doc_id = text_of(doc, '_id')
                xdoc.add_boolean_term('Q' + doc_id)
                xdoc.set_data(doc_id)
                db.add_document(xdoc)
            reply({'ms': (time.perf_counter() - start) * 1000, 'cpuMs': (time.process_time() - cpu_start) * 1000})
        elif op == 'commit':
            cpu_start = time.process_time()
            start = time.perf_counter()
            db.commit()
            enquire = xapian.Enquire(db)
            reply({'ms': (time.perf_counter() - start) * 1000, 'cpuMs': (time.process_time() - cpu_start) * 1000})
        elif op == 'search':
            cpu_start = time.process_time()
            start = time.perf_counter()
            xop = xapian.Query.OP_AND if cmd['operator'] == 'and' else xapian.Query.OP_OR
            query = xapian.Query(xop, [xapian.Query(stemmer(t)) for t in cmd['terms']])
            enquire.set_query(query)
            hits = enquire.get_mset(0, 10).size()
            ms = (time.perf_counter() - start) * 1000
            # CPU time over the search (bench/child-probe.ts compares it with Yarrow's on a loaded machine).
            reply({'hits': hits, 'ms': ms, 'cpuMs': (time.process_time() - cpu_start) * 1000})
        elif op == 'stats':
            # ru_maxrss is in KiB on Linux.
            reply({'peakRssBytes': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, 'rssAfterLoadBytes': rss_after_load})
        elif op == 'close':
            if db is not None:
                db.close()
            reply({'closed': True})
            return
        else:
            reply({'error': 'unknown op ' + op})


if __name__ == '__main__':
    main()
