#!/usr/bin/env python3
"""Lenses on sites newshound has never seen: a corpus set rewritten the way
other publishers write their pages, scored by half against the set as it is.

The held-out halves of the corpus only say how newshound does on the kinds
of markup their sites happen to use. Each lens below rewrites every page of
a set in one way that publishers outside the corpus write theirs, so that a
step can be scored on a kind of markup no corpus page has:

- `class TOKEN`: TOKEN added to the class of each page's story wrapper (the
  deepest element holding 80 % of the page's `<p>` text), as a story filed
  under a category or tag whose slug holds a boilerplate word
  (`tag-comments`, `category-kommentare`) or named with a compound name
  that holds one (`nav_politik`);
- `widget KIND`: a box inserted after the middle paragraph of the story
  (`related`: a "Related" heading and three linked headlines; `teaser`: a
  linked image, headline and summary; `ad`: an "Advertisement" label over an
  ad frame; `readalso`: a "Read also:" line);
- `split`: the story's paragraphs wrapped in two sibling `<div>`s with the
  related box between them (a CMS that writes the story as blocks);
- `links FRACTION`: about FRACTION of the words of each plain paragraph of
  the story turned into links, spread evenly (keyword auto-linking);
- `scroll`: the element that holds the page's headline (`<h1>`) and its
  story wrapper, cloned after itself with the next page's headline and
  story in place of the page's own (an infinite-scroll page, which renders
  the next story with the same template); pages whose headline and story
  meet only at `<body>` are left as they are;
- `consent`: a cookie consent manager's preference center at the end of
  `<body>`, declared a modal (`aria-modal="true"`, `role="region"`), with
  no class names (about 1,500 characters of purposes and "Always active"
  labels, as the consent managers write it);
- `hidden-copy`: the story's paragraphs copied into a hidden schema.org
  `NewsArticle` with an `itemprop=articleBody` at the end of `<body>` (the
  copy some pages keep for search engines);
- `collapsed`: the second half of the story's paragraphs in a
  `display:none` box after a "Read more" button (a story folded away);
- `plain-tags`: `<article>`, `<main>`, `<aside>`, `<nav>`, `<header>`,
  `<footer>`, `<section>`, `<figure>`, `<figcaption>` written as `<div>`,
  and `role`, `itemprop`, `itemscope`, `itemtype` and `aria-*` dropped (a
  site that declares nothing).

Both copies, the set as it is and the set rewritten, are re-serialised by
lxml the same way, then scored with `newshound eval --corpus`; the script
prints the mean F1 of the studied and held-out halves (split by site as
`eval` splits them) and the pages that lose most.

In: a set (its name in `target/corpus`, where `src/corpus_archive.rs`
unpacks the archives, or a directory holding `html/` and its gold), the
lens, the newshound binary. Out: the table on stdout; the copies in a
temporary directory, removed afterwards.

Not run by the tests (CI needs no Python). Setup, once:

    python3 -m venv /tmp/venv-lens && /tmp/venv-lens/bin/pip install lxml
    cargo build --release
    /tmp/venv-lens/bin/python benches/lenses/perturb.py fundus-dev class tag-comments

See docs/algorithms.md ("Lenses on unseen markup").
"""

import argparse
import copy
import hashlib
import html
import json
import os
import subprocess
import tempfile

import lxml.etree
import lxml.html

RELATED = (
    '<div><h3>Related</h3><ul>'
    '<li><a href="/a/1">Council to vote on the new harbour plan next week</a></li>'
    '<li><a href="/a/2">Teachers strike over pay for a second day</a></li>'
    '<li><a href="/a/3">Storm warning issued for the coast tonight</a></li></ul></div>'
)
WIDGETS = {
    "related": RELATED,
    "teaser": '<div><a href="/a/9"><img src="x.jpg"><h4>Council to vote on the new harbour '
    'plan next week</h4><p>The plan would double the harbour in ten years.</p></a></div>',
    "ad": '<div><p>Advertisement</p><div><iframe src="/ad"></iframe></div></div>',
    "readalso": '<p><strong>Read also:</strong> <a href="/a/7">Council to vote on the new '
    "harbour plan next week</a></p>",
}
CONSENT_PURPOSES = [
    ("Strictly necessary cookies", "These cookies are necessary for the website to function and "
     "cannot be switched off in our systems. They are usually only set in response to actions "
     "made by you which amount to a request for services, such as setting your privacy "
     "preferences, logging in or filling in forms."),
    ("Performance cookies", "These cookies allow us to count visits and traffic sources so we "
     "can measure and improve the performance of our site. They help us to know which pages are "
     "the most and least popular and see how visitors move around the site."),
    ("Functional cookies", "These cookies enable the website to provide enhanced functionality "
     "and personalisation. They may be set by us or by third party providers whose services we "
     "have added to our pages. If you do not allow these cookies then some of these services "
     "may not function properly."),
    ("Targeting cookies", "These cookies may be set through our site by our advertising "
     "partners. They may be used by those companies to build a profile of your interests and "
     "show you relevant adverts on other sites. They do not store directly personal "
     "information, but are based on uniquely identifying your browser and internet device."),
]
CONSENT = (
    '<div aria-modal="true" role="region" aria-label="Preference center"><h2>Privacy '
    "preference center</h2><p>When you visit any website, it may store or retrieve information "
    "on your browser, mostly in the form of cookies. This information might be about you, your "
    "preferences or your device and is mostly used to make the site work as you expect it "
    "to.</p>"
    + "".join(f"<h3>{h}</h3><p>{t}</p><span>Always active</span>" for h, t in CONSENT_PURPOSES)
    + "<button>Confirm my choices</button></div>"
)
PLAIN_TAGS = {"article", "main", "aside", "nav", "header", "footer", "section", "figure", "figcaption"}
DECLARING_ATTRS = ("role", "itemprop", "itemscope", "itemtype")


def story_wrapper(doc):
    """The deepest element holding >= 80 % of the page's <p> text, or None."""
    total = sum(len(p.text_content()) for p in doc.iter("p"))
    if total <= 200:
        return None
    best = None
    # Document order: of the nested elements that qualify, the last is the deepest.
    for el in doc.iter():
        if not isinstance(el.tag, str) or el.tag in ("p", "html", "body"):
            continue
        if sum(len(p.text_content()) for p in el.iter("p")) >= 0.8 * total:
            best = el
    return best


def long_paragraphs(wrapper, direct=False):
    ps = list(wrapper) if direct else list(wrapper.iter("p"))
    return [p for p in ps if p.tag == "p" and len(p.text_content()) > 80]


def add_class(doc, token):
    w = story_wrapper(doc)
    if w is None:
        return False
    w.set("class", (w.get("class", "") + " " + token).strip())
    return True


def insert_widget(doc, kind):
    w = story_wrapper(doc)
    ps = long_paragraphs(w) if w is not None else []
    if len(ps) < 4:
        return False
    ps[len(ps) // 2].addnext(lxml.html.fragment_fromstring(WIDGETS[kind]))
    return True


def story_halves(doc):
    """The story wrapper's children before and after its middle long
    paragraph, detached from it, or None (fewer than four long paragraphs
    directly in the wrapper)."""
    w = story_wrapper(doc)
    if w is None:
        return None
    kids = list(w)
    longp = [i for i, k in enumerate(kids) if k.tag == "p" and len(k.text_content()) > 80]
    if len(longp) < 4:
        return None
    cut = longp[len(longp) // 2]
    for k in kids:
        w.remove(k)
    return w, kids[:cut], kids[cut:]


def split_story(doc):
    halves = story_halves(doc)
    if halves is None:
        return False
    w, before, after = halves
    first, second = lxml.html.Element("div"), lxml.html.Element("div")
    first.extend(before)
    second.extend(after)
    w.extend([first, lxml.html.fragment_fromstring(RELATED), second])
    return True


def collapse_story(doc):
    """The second half of the story's paragraphs in a `display:none` box
    after a "Read more" button, as a page that folds its story does."""
    halves = story_halves(doc)
    if halves is None:
        return False
    w, before, after = halves
    folded = lxml.html.fragment_fromstring('<div style="display:none"></div>')
    folded.extend(after)
    w.extend(before + [lxml.html.fragment_fromstring("<button>Read more</button>"), folded])
    return True


def link_words(doc, fraction):
    w = story_wrapper(doc)
    if w is None:
        return False
    changed = False
    for p in list(w.iter("p")):
        if len(p) or not p.text or len(p.text) < 80 or " " not in p.text.strip():
            continue  # plain paragraphs of spaced words only
        words = p.text.split(" ")
        groups = [" ".join(words[i : i + 4]) for i in range(0, len(words), 4)]
        parts = [
            f'<a href="/topic/{i}">{html.escape(g)}</a>'
            if int((i + 1) * fraction) > int(i * fraction)
            else html.escape(g)
            for i, g in enumerate(groups)
        ]
        new = lxml.html.fragment_fromstring("<p>" + " ".join(parts) + "</p>")
        new.tail = p.tail
        p.getparent().replace(p, new)
        changed = True
    return changed


def headline_of(doc):
    """The page's headline element: the first `<h1>` sharing half of its
    words with the `<title>`, else the first `<h1>` with text, or None."""
    title = doc.find(".//title")
    title_words = set(words(title.text_content() if title is not None else ""))
    h1s = [h for h in doc.iter("h1") if h.text_content().strip()]
    for h in h1s:
        w = words(h.text_content())
        if w and sum(x in title_words for x in w) * 2 >= len(w):
            return h
    return h1s[0] if h1s else None


def words(s):
    """Lower-case alphanumeric words."""
    return "".join(c.lower() if c.isalnum() else " " for c in s).split()


def path_to(ancestor, el):
    """Child indices from `ancestor` down to `el`."""
    path = []
    while el is not ancestor:
        parent = el.getparent()
        path.append(parent.index(el))
        el = parent
    return path[::-1]


def follow(el, path):
    for i in path:
        el = el[i]
    return el


def append_next_story(doc, next_path):
    """The unit that holds the page's headline and story, cloned after
    itself with the next page's headline and story in it, as an
    infinite-scroll page renders the next story with its own template."""
    w, head = story_wrapper(doc), headline_of(doc)
    nxt = parse(open(next_path, "rb").read())
    w2 = story_wrapper(nxt) if nxt is not None else None
    if w is None or head is None or w2 is None:
        return False
    inside = set(head.iterancestors())
    unit = w if w in inside else next(a for a in w.iterancestors() if a in inside)
    if unit.tag in ("body", "html") or unit.getparent() is None:
        return False
    head_path, story_path = path_to(unit, head), path_to(unit, w)
    clone = copy.deepcopy(unit)
    head2, story2 = follow(clone, head_path), follow(clone, story_path)
    next_head = headline_of(nxt)
    head2_text = next_head.text_content() if next_head is not None else ""
    if not head2_text.strip():
        title = nxt.find(".//title")
        head2_text = (title.text_content() if title is not None else "").split(" | ")[0]
    # The next story's paragraphs in place of the page's, the template kept.
    ps = [q for q in story2.iter("p") if not any(a is head2 for a in q.iterancestors())]
    if not ps:
        return False
    at, pos = ps[0].getparent(), ps[0].getparent().index(ps[0])
    for q in ps:
        q.drop_tree()
    for k, q in enumerate(w2.iter("p")):
        at.insert(pos + k, copy.deepcopy(q))
    for k in list(head2):
        head2.remove(k)
    head2.text = head2_text.strip()
    clone.tail = None
    unit.addnext(clone)
    return True


def append_hidden_copy(doc):
    w = story_wrapper(doc)
    body = doc.find(".//body")
    if w is None or body is None:
        return False
    copy_ = lxml.html.fragment_fromstring(
        '<div itemscope itemtype="https://schema.org/NewsArticle" style="display:none">'
        '<div itemprop="articleBody"></div></div>'
    )
    inner = copy_[0]
    for p in w.iter("p"):
        inner.append(copy.deepcopy(p))
    body.append(copy_)
    return True


def append_consent(doc):
    body = doc.find(".//body")
    if body is None:
        return False
    body.append(lxml.html.fragment_fromstring(CONSENT))
    return True


def plain_tags(doc):
    changed = False
    for el in doc.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag in PLAIN_TAGS:
            el.tag = "div"
            changed = True
        for a in list(el.attrib):
            if a in DECLARING_ATTRS or a.startswith("aria-"):
                del el.attrib[a]
                changed = True
    return changed


def parse(raw):
    try:
        # Text that is UTF-8 is parsed as text: lxml would otherwise believe
        # a page's stale charset declaration and garble it.
        return lxml.html.document_fromstring(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        try:
            return lxml.html.document_fromstring(raw)
        except (ValueError, lxml.etree.ParserError):
            return None


def copy_set(src, dst, rewrite):
    """Copy the set's pages to dst/html, rewritten when `rewrite` is given
    (called with the page and the path of the next page in name order), and
    link its gold. Returns how many pages the rewrite changed."""
    os.makedirs(os.path.join(dst, "html"))
    for extra in ("gold", "snippets.json", "manifest.jsonl"):
        if os.path.exists(os.path.join(src, extra)):
            os.symlink(os.path.abspath(os.path.join(src, extra)), os.path.join(dst, extra))
    changed = 0
    names = sorted(os.listdir(os.path.join(src, "html")))
    for k, name in enumerate(names):
        next_path = os.path.join(src, "html", names[(k + 1) % len(names)])
        raw = open(os.path.join(src, "html", name), "rb").read()
        doc = parse(raw)
        if doc is None:
            open(os.path.join(dst, "html", name), "wb").write(raw)
            continue
        if rewrite is not None and rewrite(doc, next_path):
            changed += 1
        out = lxml.html.tostring(doc, encoding="utf-8", doctype="<!DOCTYPE html>")
        open(os.path.join(dst, "html", name), "wb").write(out)
    return changed


def half(site):
    """`eval`'s split: the studied half when the first byte of the MD5 of the
    site (lower case, without "www.") is even."""
    key = site.strip().lower()
    key = key[4:] if key.startswith("www.") else key
    return "S" if hashlib.md5(key.encode()).digest()[0] & 1 == 0 else "H"


def scores(binary, corpus, name, ablate=None):
    cmd = [binary, "eval", "--corpus", corpus, "--set", name, "--json", "--jobs", "2"]
    if ablate:
        cmd += ["--ablate", ablate]
    report = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    return {p["name"]: (p["f1"], half(p["site"])) for p in report["pages"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", help="set name in target/corpus, or a set directory")
    ap.add_argument("lens", choices=["class", "widget", "split", "links", "scroll", "consent", "hidden-copy", "collapsed", "plain-tags"])
    ap.add_argument("arg", nargs="?", help="class: the token; widget: the kind; links: the fraction")
    ap.add_argument("--bin", default="target/release/newshound")
    ap.add_argument("--worst", type=int, default=10)
    ap.add_argument("--ablate", help="steps switched off in both scorings (`eval --ablate`)")
    a = ap.parse_args()
    needs = {"class": "a class token", "widget": "|".join(WIDGETS), "links": "a fraction, e.g. 0.3"}
    if a.lens in needs and a.arg is None:
        ap.error(f"{a.lens} needs {needs[a.lens]}")
    if a.lens == "widget" and a.arg not in WIDGETS:
        ap.error(f"widget: one of {', '.join(WIDGETS)}")
    rewrite = {
        "class": lambda d, _: add_class(d, a.arg),
        "widget": lambda d, _: insert_widget(d, a.arg),
        "split": lambda d, _: split_story(d),
        "links": lambda d, _: link_words(d, float(a.arg)),
        "scroll": append_next_story,
        "consent": lambda d, _: append_consent(d),
        "hidden-copy": lambda d, _: append_hidden_copy(d),
        "collapsed": lambda d, _: collapse_story(d),
        "plain-tags": lambda d, _: plain_tags(d),
    }[a.lens]
    src = a.set if os.path.isdir(a.set) else os.path.join("target", "corpus", a.set)
    name = os.path.basename(os.path.normpath(src))
    if not os.path.isdir(os.path.join(src, "html")):
        raise SystemExit(f"{src}/html: no such directory (run `cargo test` once to unpack the corpus)")
    with tempfile.TemporaryDirectory() as tmp:
        copy_set(src, os.path.join(tmp, "as-is", name), None)
        changed = copy_set(src, os.path.join(tmp, "lens", name), rewrite)
        before = scores(a.bin, os.path.join(tmp, "as-is"), name, a.ablate)
        after = scores(a.bin, os.path.join(tmp, "lens"), name, a.ablate)
    print(f"{name}: {a.lens} {a.arg or ''} changed {changed} of {len(before)} pages")
    for h in "SH":
        keys = [k for k in before if before[k][1] == h]
        if keys:
            mean = lambda d: sum(d[k][0] for k in keys) / len(keys)
            print(f"  {h}: mean F1 {mean(before):.4f} -> {mean(after):.4f} ({len(keys)} pages)")
    drops = sorted((after[k][0] - before[k][0], k) for k in before)[: a.worst]
    for d, k in drops:
        if d < -0.02:
            print(f"    {before[k][1]} {k}: {before[k][0]:.3f} -> {after[k][0]:.3f}")


if __name__ == "__main__":
    main()
