# call 120: the machine code of MXFP4's standalone one-row kernel in the block order (fs_d2, tsk of call 110-111)
# beside the template's window kernel on the same layout (pipe_mxfp4_m1_t1_d2, tsk of call 114), if cuobjdump is here
for v in old new; do xz -dc dist/probe/tsk-$v.xz > /tmp/tsk-$v && chmod +x /tmp/tsk-$v; done
mkdir -p /tmp/o; rm -f /tmp/o/*
C=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1); echo "cuobjdump: $C"
ls -d /usr/local/cuda* 2>/dev/null; python3 -c "import nvidia, os; print(os.path.dirname(nvidia.__file__))" 2>/dev/null
[ -z "$C" ] && C=$(find / -name cuobjdump -type f 2>/dev/null | head -1) && echo "found: $C"
if [ -n "$C" ]; then
  $C -sass -fun fs_d2 /tmp/tsk-old > /tmp/o/fs_d2.sass 2>&1
  $C -sass -fun pipe_mxfp4_m1_t1_d2 /tmp/tsk-new > /tmp/o/template_d2.sass 2>&1
  $C -sass -fun pipe_mxfp4_m1_t1_d2 /tmp/tsk-old > /tmp/o/shipped_layout_d2.sass 2>&1
  wc -l /tmp/o/*.sass
fi
tar -C /tmp -czf $OUT/call120.tgz o
