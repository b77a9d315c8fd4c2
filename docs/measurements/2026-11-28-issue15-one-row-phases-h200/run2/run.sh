./dist/packed/stamps > $OUT/stamps.txt   # probe_stamps.cu as in run 3 without its chunks mode, built by build.sh
