./dist/packed/stamps chunks > $OUT/stamps-chunks.txt
