# `pip install ./python` works offline with Debian's setuptools, and the
# pip-installed package finds librlx_runtime.so through RLX_BUILD_DIR or
# RLX_RUNTIME_LIB.
# RUN: rm -rf %t && mkdir -p %t && %python %s %t %rlx_src %rlx_obj | FileCheck %s
import os
import shutil
import subprocess
import sys

tmp, src, build = sys.argv[1:4]
# A copy: pip builds in the tree (build/, rlx.egg-info/).
shutil.copytree(os.path.join(src, "python"), os.path.join(tmp, "python"),
                ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
base = {"PATH": "/usr/bin:/bin", "HOME": tmp}
base.update({k: os.environ[k] for k in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")
             if k in os.environ})  # a sanitizer build's Python
pip = subprocess.run(
    ["/usr/bin/python3", "-m", "pip", "install", "--no-build-isolation",
     "--no-index", "--no-cache-dir", "--disable-pip-version-check",
     "--prefix", os.path.join(tmp, "prefix"), os.path.join(tmp, "python")],
    env=dict(base, PIP_ROOT_USER_ACTION="ignore"), cwd=tmp,
    capture_output=True, text=True)
print(pip.stdout.splitlines()[-1] if pip.returncode == 0 else pip.stdout + pip.stderr)
# CHECK: Successfully installed rlx-0.1.0

# Debian's pip puts it under <prefix>/local/lib/python3.X/dist-packages.
site = [root for root, dirs, files in os.walk(os.path.join(tmp, "prefix"))
        if "rlx" in dirs and os.path.isfile(os.path.join(root, "rlx", "__init__.py"))]
print("installed:", len(site))
# CHECK: installed: 1

script = r"""
import os, numpy as np, rlx
m = rlx.compile('''
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = rlx.relu %x : tensor<?xf32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}''')
print("from:", os.path.relpath(rlx.__file__, os.environ["PYTHONPATH"]),
      "f:", m.f(np.array([-1.0, 2.0], np.float32)).tolist())
"""
lib = os.path.join(build, "lib", "librlx_runtime.so")
for name, extra in (("RLX_BUILD_DIR", {"RLX_BUILD_DIR": build}),
                    ("RLX_RUNTIME_LIB", {"RLX_RUNTIME_LIB": lib}),
                    ("neither", {})):
    out = subprocess.run([sys.executable, "-c", script], cwd="/",
                         env=dict(base, PYTHONPATH=site[0], **extra),
                         capture_output=True, text=True)
    print(name + ":", (out.stdout + out.stderr).strip().splitlines()[-1])
# CHECK: RLX_BUILD_DIR: from: rlx/__init__.py f: [0.0, 2.0]
# CHECK: RLX_RUNTIME_LIB: from: rlx/__init__.py f: [0.0, 2.0]
# CHECK: neither: rlx.RlxError: librlx_runtime.so not found; set RLX_BUILD_DIR (a build tree) or RLX_RUNTIME_LIB (the library)
