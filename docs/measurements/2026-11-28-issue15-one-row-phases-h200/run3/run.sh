for b in stamps stamps4; do ./dist/packed/$b > $OUT/$b.txt 2>&1; done   # build.sh; stamps4: stages4.diff on top
