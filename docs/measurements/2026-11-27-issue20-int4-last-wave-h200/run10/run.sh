# run 10: run 9 with IT=0 on an H100
IT=0 bash dist/packed/call118.sh
