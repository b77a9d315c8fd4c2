# Compares the machine code of two sm_90a cubins (nvcc -O3 -std=c++17 -cubin -gencode=arch=compute_90a,code=sm_90a
# gemv.cu, built from two trees): prints each kernel's .text section that differs.
import struct
import sys


def sections(path):
    d = open(path, 'rb').read()
    shoff = struct.unpack_from('<Q', d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3A)
    hdr = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    names = hdr[shstrndx][4]
    out = {}
    for h in hdr:
        name = d[names + h[0]:d.index(b'\0', names + h[0])].decode()
        out[name] = d[h[4]:h[4] + h[5]] if h[1] != 8 else b''
    return out


a, b = sections(sys.argv[1]), sections(sys.argv[2])
texts = sorted(n for n in b if n.startswith('.text.'))
differ = [n for n in texts if a.get(n) != b[n]]
print(f'{len(texts)} kernels, {len(differ)} differ')
for n in differ:
    print('  ' + n[len('.text.'):])
