# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "rlx"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py", ".test", ".c"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt",
                   "rlxtest.py", "gradtest.py", "Inputs", "capi-test.c",
                   "dialect-test.c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.rlx_obj_root, "test")

# The numerics oracle (PyTorch, numpy) lives in Debian's python3.
# In a sanitizer build (RLX_SANITIZE) it runs with the ASan runtime preloaded.
config.substitutions.append(("%python", config.rlx_python))
config.substitutions.append(("%rlx_src", config.rlx_src_root))
# Where `cmake --install` puts the Python package, relative to the prefix.
config.substitutions.append(("%rlx_python_install_dir",
                             config.rlx_python_install_dir))
config.substitutions.append(("%rlx_obj", config.rlx_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(
    ("%mlir_lib_dir", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

llvm_config.with_system_environment(["HOME", "TMPDIR", "OPENBLAS_CORETYPE",
                                     "OPENBLAS_L2_SIZE", "ASAN_OPTIONS",
                                     "UBSAN_OPTIONS"])
llvm_config.use_default_substitutions()

tool_dirs = [os.path.join(config.rlx_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["rlx-opt", "rlx-run", "mlir-runner", "mlir-opt", "mlir-translate"],
    tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", os.path.join(config.rlx_obj_root, "bin"),
                             append_path=True)
# The Python package and the numerics harness find the build through these.
llvm_config.with_environment("RLX_BUILD_DIR", config.rlx_obj_root)
llvm_config.with_environment(
    "PYTHONPATH",
    [os.path.join(config.rlx_src_root, "python"),
     os.path.join(config.rlx_src_root, "test", "Numerics")],
    append_path=True)
# Each numerics file writes its per-op case counts and worst errors here;
# scripts/numerics-report.py prints the table.
llvm_config.with_environment("RLX_NUMERICS_REPORT_DIR",
                             os.path.join(config.rlx_obj_root, "numerics"))

# rlx-to-llvm writes large results with x86 non-temporal stores on x86 hosts.
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86")
