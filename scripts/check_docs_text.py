#!/usr/bin/env python3
"""scripts/check_docs_text.py - the Markdown documents for their readers:
  1. every relative link [text](target) of README.md, CHANGELOG.md, docs/ and bench/
     resolves to a file or folder of the tree, and a #fragment to a heading of its file;
  2. README.md and docs/ narrate no history: no time of day (14:05), no "session", no
     "was X -> Y", no "step N of", no "went/fell/rose from X to Y", no "commit 1a2b3c4";
  3. CI runs the README's test command: the command that .ci/run executes is a command of
     the README's "Quick start";
  4. the instruction counts stand in one place: README.md's performance table is the block
     that scripts/insn_counts.sh --write generates, bench/figures/insn_counts.md is that
     script's file, and no other line of README.md or docs/ repeats one of their figures;
  5. the README's "Layout" names every folder of src/ (no face left out), every layer and
     face folder of src/ has its design note docs/design/<folder>.md, and the map
     (docs/architecture.md) links every design note.
Prints one line per problem and "check_docs_text: L links, D documents, P problems";
exits 1 when there is a problem."""
import os, re, sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
os.chdir(root)
skip_dirs = {'.git', 'build', 'node_modules'}

def md_files(top):
    if os.path.isfile(top):
        yield top
        return
    for d, dirs, files in os.walk(top):
        dirs[:] = [x for x in dirs if x not in skip_dirs and not x.startswith('build')]
        for f in sorted(files):
            if f.endswith('.md'):
                yield os.path.join(d, f)

def slug(h):  # GitHub's heading anchors
    h = re.sub(r'[`*_]', '', h.strip().lower())
    h = re.sub(r'[^\w\- ]', '', h)
    return h.replace(' ', '-')

def anchors(path):
    text = open(path, encoding='utf-8').read()
    text = re.sub(r'```.*?```', '', text, flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r'^#{1,6} (.+?)#*$', text, re.M)}

link_re = re.compile(r'(?<!\!)\[[^\]\n]*\]\(([^)\s]+)(?: "[^"]*")?\)|!\[[^\]\n]*\]\(([^)\s]+)\)')
history = [
    (re.compile(r'(?<![\w:.])([01][0-9]|2[0-3]):[0-5][0-9](?![\w:])'), 'a time of day'),
    (re.compile(r'\bsessions?\b', re.I), '"session"'),
    (re.compile(r'\bwas\b[^.;:\n]{0,60}(->|→)'), '"was X -> Y"'),
    (re.compile(r'\bstep [0-9]+ of\b', re.I), '"step N of"'),
    (re.compile(r'\b(went|fell|rose|dropped|moved) from [0-9][0-9.,]* *\w* to [0-9]'), '"from X to Y"'),
    (re.compile(r'\b(commit|build of) [0-9a-f]{7,40}\b'), 'a figure of an older commit'),
]

problems = nlinks = ndocs = 0
docs = [f for top in ('README.md', 'CHANGELOG.md', 'docs', 'bench') if os.path.exists(top)
        for f in md_files(top)]
for path in docs:
    ndocs += 1
    text = open(path, encoding='utf-8').read()
    body = re.sub(r'```.*?```', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    for n, line in enumerate(body.split('\n'), 1):
        for m in link_re.finditer(re.sub(r'`[^`]*`', '', line)):
            target = m.group(1) or m.group(2)
            if re.match(r'^[a-z][a-z0-9+.-]*:', target):   # http:, https:, mailto:
                continue
            nlinks += 1
            file, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(dest):
                print(f'{path}:{n}: broken link {target}')
                problems += 1
            elif frag and dest.endswith('.md') and frag not in anchors(dest):
                print(f'{path}:{n}: no heading #{frag} in {dest}')
                problems += 1
    narrative = path == 'README.md' or path.startswith('docs' + os.sep)
    if not narrative:
        continue
    for n, line in enumerate(text.split('\n'), 1):
        for rx, what in history:
            if rx.search(line):
                print(f'{path}:{n}: narrates history ({what}): {line.strip()[:100]}')
                problems += 1
# 3. .ci/run's command (its exec line, relative to the repository root) in the Quick start
ci = [l.split(None, 1)[1].strip() for l in open('.ci/run') if l.startswith('exec ')]
readme = open('README.md', encoding='utf-8').read()
qs = re.search(r'^## Quick start\n(.*?)(?=^## )', readme, re.S | re.M)
cmds = []
for block in re.findall(r'```sh\n(.*?)```', qs.group(1) if qs else '', re.S):
    cmds += [line.split('#')[0].strip() for line in block.split('\n')]
if len(ci) != 1:
    print('.ci/run: expected one exec line, found %d' % len(ci))
    problems += 1
elif ci[0] not in cmds:
    print(f'README.md: the Quick start does not give the command CI runs (.ci/run: {ci[0]})')
    problems += 1
# 4. the generated figures, and nowhere else
blk = re.search(r'^<!-- insn_counts:begin.*?^<!-- insn_counts:end -->$', readme, re.S | re.M)
fig = open('bench/figures/insn_counts.md', encoding='utf-8').read() \
    if os.path.exists('bench/figures/insn_counts.md') else ''
if not blk or 'scripts/insn_counts.sh --write' not in blk.group(0) or '| operation |' not in blk.group(0):
    print('README.md: no performance table generated by scripts/insn_counts.sh --write')
    problems += 1
if 'Generated by `scripts/insn_counts.sh --write' not in fig:
    print('bench/figures/insn_counts.md: not the file scripts/insn_counts.sh --write generates')
    problems += 1
figures = set()
for table in ((blk.group(0) if blk else ''), fig):
    for row in re.findall(r'^\|(.*)\|$', table, re.M):
        figures.update(c.strip() for c in row.split('|')[1:] if re.fullmatch(r'\d{2,4}\.\d', c.strip()))
outside = [('README.md', readme.replace(blk.group(0), '\n' * blk.group(0).count('\n')) if blk else readme)]
outside += [(f, open(f, encoding='utf-8').read()) for f in docs if f.startswith('docs' + os.sep)]
for path, text in outside:
    for n, line in enumerate(text.split('\n'), 1):
        hit = [x for x in figures if re.search(r'(?<![\d.])' + re.escape(x) + r'(?![\d])', line)]
        if hit:
            print(f'{path}:{n}: repeats the generated figure(s) {", ".join(sorted(hit))}: {line.strip()[:80]}')
            problems += 1
# 5. every folder of src/ in the README's layout
lay = re.search(r'^## Layout\n(.*?)(?=^## |\Z)', readme, re.S | re.M)
for d in sorted(os.listdir('src')):
    if os.path.isdir(os.path.join('src', d)) and not (lay and f'src/{d}/' in lay.group(1)):
        print(f'README.md: the Layout section does not name src/{d}/')
        problems += 1
amap = open('docs/architecture.md', encoding='utf-8').read()
for d in sorted(os.listdir('src')):
    if os.path.isdir(os.path.join('src', d)) and d != 'core' and not os.path.exists(f'docs/design/{d}.md'):
        print(f'docs/design/{d}.md: missing (the design note of src/{d}/)')
        problems += 1
for f in sorted(os.listdir('docs/design')):
    if f.endswith('.md') and f'(design/{f})' not in amap:
        print(f'docs/architecture.md: does not link design/{f}')
        problems += 1
print(f'check_docs_text: {nlinks} links, {ndocs} documents, {problems} problems')
sys.exit(1 if problems else 0)
