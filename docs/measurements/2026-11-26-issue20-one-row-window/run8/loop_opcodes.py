# Opcode counts of each loop (a backward branch and the instructions it spans) in cuobjdump -sass listings:
#   python3 loop_opcodes.py sass-<kernel>.txt ...
import collections, re, sys

for path in sys.argv[1:]:
    ins = []
    for line in open(path):
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2)))
    print(path, len(ins), 'instructions')
    for addr, text in ins:
        b = re.search(r'\bBRA\b.*0x([0-9a-f]+)', text)
        if b and int(b.group(1), 16) < addr:
            body = [t for a, t in ins if int(b.group(1), 16) <= a <= addr]
            ops = collections.Counter(re.sub(r'^@!?U?P\w+\s+', '', t).split()[0].split('.')[0] for t in body)
            print('  loop', hex(int(b.group(1), 16)), hex(addr), len(body), dict(ops.most_common()))
