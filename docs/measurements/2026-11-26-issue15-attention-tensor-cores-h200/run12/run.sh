# run 12: as run 3 (../run3/probe.cu), two binaries three times: head (df97003) and mr (the merge holding its splits'
# partials in registers, their loads issued before the max: the commit after this record's run 11):
#   for r in 1 2 3; do for v in head mr; do echo "== $v $r"; ./$v | grep -v "L=    17"; done; done > output.txt
