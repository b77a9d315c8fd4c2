# run 4: as run 3 (../run3/probe.cu), three binaries three times: basep (2fa7673), mma (the tensor-core phases) and
# mm2 (mma with the merge in one pass, variant.diff), each printing every context but 17 tokens:
#   for r in 1 2 3; do for v in basep mma mm2; do echo "== $v $r"; ./$v | grep -v "L=    17"; done; done > output.txt
