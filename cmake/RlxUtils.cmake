# rlx_add_library(name SOURCES... [DEPENDS tablegen-targets...])
#
# A shared library linked against libMLIR.so (never the static MLIR* archives),
# exported as RlxAD::<name> from both the build and the install tree.
function(rlx_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LINK" ${ARGN})
  add_library(${name} SHARED ${ARG_SOURCES})
  add_library(RlxAD::${name} ALIAS ${name})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC MLIR LLVM ${ARG_LINK})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${RLX_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${RLX_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  set_target_properties(${name} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${RLX_BINARY_DIR}/lib
    INSTALL_RPATH "$ORIGIN;${LLVM_LIBRARY_DIR}"
    BUILD_RPATH "${RLX_BINARY_DIR}/lib;${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} EXPORT RlxADTargets
    LIBRARY DESTINATION lib ARCHIVE DESTINATION lib RUNTIME DESTINATION bin)
endfunction()

# rlx_add_doc(name tablegen-flags...)
#
# Generates the Markdown reference for ${name}.td into <build>/docs/Dialect/.
# The committed copies under docs/Dialect/ are compared against these by the
# lit suite (test/Docs) and refreshed with `ninja rlx-update-docs`.
function(rlx_add_doc name)
  set(LLVM_TARGET_DEFINITIONS ${name}.td)
  tablegen(MLIR ${name}.md ${ARGN})
  set(out ${RLX_BINARY_DIR}/docs/Dialect/${name}.md)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_BINARY_DIR}/${name}.md ${out}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${name}.md)
  add_custom_target(${name}DocGen ALL DEPENDS ${out})
  set_property(GLOBAL APPEND PROPERTY RLX_DOC_TARGETS ${name}DocGen)
endfunction()
