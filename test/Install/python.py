# cmake --install puts the rlx package where Debian's python3 imports it, and
# the installed package finds the installed librlx_runtime.so by itself (no
# RLX_BUILD_DIR, no RLX_RUNTIME_LIB, not the source tree's python/).
# RUN: rm -rf %t && mkdir -p %t && %cmake --install %rlx_obj --prefix %t/prefix > %t/install.log
# RUN: %python %s %t/prefix %rlx_python_install_dir %rlx_obj | FileCheck %s
import os
import subprocess
import sys

prefix, subdir, build = sys.argv[1:4]
site = os.path.join(prefix, subdir)
print("package:", os.path.isfile(os.path.join(site, "rlx", "__init__.py")))
# CHECK: package: True

# Under the build's own install prefix (/usr/local by default, or /usr), the
# directory is on /usr/bin/python3's sys.path.
cache = open(os.path.join(build, "CMakeCache.txt")).read()
configured = [l.split("=", 1)[1] for l in cache.splitlines()
              if l.startswith("CMAKE_INSTALL_PREFIX:")][0]
on_path = subprocess.run(
    ["/usr/bin/python3", "-c", "import sys; print(sys.argv[1] in sys.path)",
     os.path.join(configured, subdir)], env={"PATH": "/usr/bin:/bin"},
    capture_output=True, text=True, check=True).stdout.strip()
print("on Debian's sys.path under %s:" % configured, on_path)
# CHECK: on Debian's sys.path under {{.*}}: True

# Here the prefix is a temporary directory: PYTHONPATH names it, and nothing
# else points at rlx.
env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": site, "HOME": os.environ.get("HOME", "/")}
env.update({k: os.environ[k] for k in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")
            if k in os.environ})  # a sanitizer build's Python
script = r"""
import os, numpy as np, rlx
m = rlx.compile('''
func.func @f(%x: tensor<?xf64>) -> tensor<?xf64> {
  %y = rlx.relu %x : tensor<?xf64> -> tensor<?xf64>
  return %y : tensor<?xf64>
}''')
lib = rlx._find_library()
print("module:", os.path.relpath(rlx.__file__, os.environ["PYTHONPATH"]))
print("library:", os.path.relpath(lib, os.environ["PYTHONPATH"] + "/../../.."))
print("f:", m.f(np.array([-1.0, 2.0])).tolist())
"""
out = subprocess.run([sys.executable, "-c", script], env=env, cwd="/",
                     capture_output=True, text=True)
print(out.stdout + out.stderr)
# CHECK: module: rlx/__init__.py
# CHECK: library: lib/librlx_runtime.so
# CHECK: f: [0.0, 2.0]
