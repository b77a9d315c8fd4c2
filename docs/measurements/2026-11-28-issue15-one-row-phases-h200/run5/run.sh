./dist/packed/tail > $OUT/tail.txt
