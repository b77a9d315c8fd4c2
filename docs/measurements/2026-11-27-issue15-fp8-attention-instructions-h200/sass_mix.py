import csv,sys,collections,re
rows=list(csv.reader(open(sys.argv[1])))
hdr=rows[1]; data=rows[2:]
ie=hdr.index("Instructions Executed"); src=hdr.index("Source"); st=hdr.index("Warp Stall Sampling (All Samples)")
tot=0; byop=collections.Counter(); stall=collections.Counter(); tots=0
for r in data:
    try: n=int(r[ie].replace(',',''))
    except: continue
    op=r[src].strip().split()
    if not op: continue
    o=op[0]
    if o.startswith('@'): o=op[1]
    base=o.split('.')[0]
    key=o if base in('F2FP','HMMA','LDSM','PRMT','F2F','MUFU') else base
    byop[key]+=n; tot+=n
    s=int(r[st].replace(',','') or 0); stall[key]+=s; tots+=s
print('total warp insts',tot)
for k,v in byop.most_common(40): print(f'{k:28s} {v:12d} {100*v/tot:5.1f}%  stall {100*stall[k]/tots:5.1f}%')
