# SylvaInstall.cmake — install libsylva (shared, exported as sylva::sylva;
# static, exported as sylva::sylva_static), the headers, the `sylva` and
# `sylva-gen` commands (RUNPATH $ORIGIN/../lib: they run from any prefix),
# the man page sylva.1, the CMake package files and the pkg-config files
# sylva.pc (shared) and sylva-static.pc (libsylva.a). docs/api.md,
# "Building against the installed package", says how each is used.
include(CMakePackageConfigHelpers)
install(TARGETS sylva sylva_static EXPORT sylvaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES include/sylva.h include/sylva_cholmod.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES docs/sylva.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(EXPORT sylvaTargets NAMESPACE sylva:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sylva)

# What sylvaConfig.cmake needs to find the dependencies again: where they
# were found here (hints), and whether this build has CUDA.
# (The StarPU this build uses: its pkg-config directory from the libdir that
# pkg_check_modules found, not from whatever PKG_CONFIG_PATH says now.)
set(SYLVA_STARPU_PCDIR ${STARPU_LIBDIR}/pkgconfig)
set(SYLVA_DEP_HINTS)
foreach(lib ${CHOLMOD_LIBRARIES} ${METIS_LIBRARY} ${SCOTCH_LIBRARY} ${SCOTCHERR_LIBRARY})
  get_filename_component(d ${lib} DIRECTORY)
  list(APPEND SYLVA_DEP_HINTS ${d})
endforeach()
list(REMOVE_DUPLICATES SYLVA_DEP_HINTS)
set(SYLVA_WITH_CUDA ${SYLVA_ENABLE_CUDA})
configure_package_config_file(cmake/sylvaConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/sylvaConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sylva)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/sylvaConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/sylvaConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/sylvaConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sylva)

# pkg-config. sylva_cholmod.h includes <cholmod.h>: SuiteSparse's include
# directory (Debian 12's SuiteSparse ships no .pc file to require) goes in
# Cflags. sylva.pc's private fields are what `pkg-config --static` would
# add; sylva-static.pc links libsylva.a with its dependencies' shared
# libraries instead (docs/api.md says why `--static` cannot work here).
# sylva.pc's Libs carry a run path to the prefix's libdir (pkg-config
# resolves ${pcfiledir}: the prefix as found, moved or not), so that a
# program linked with `pkg-config --libs sylva` runs without
# LD_LIBRARY_PATH. StarPU is not a Requires: sylva.h includes none of its
# headers, and pkg-config would add the Cflags of whichever starpu-1.3.pc
# comes first on PKG_CONFIG_PATH (Debian's CPU one, where the library links
# the CUDA one); its library goes by path in Libs.private, as below.
set(SYLVA_PC_CFLAGS_EXTRA "-I${CHOLMOD_INCLUDE_DIR}")
set(SYLVA_PC_REQUIRES_PRIVATE "openblas zlib liblzma")
# sylva-static.pc names StarPU's library directly, with a run path when it
# is not a system directory: Debian's CPU-only StarPU has the same soname,
# and a program linked against the CUDA one must not load the other.
set(SYLVA_PC_STATIC_REQUIRES "openblas zlib liblzma")
set(SYLVA_PC_STARPU "-L${STARPU_LIBDIR} -lstarpu-1.3")
if(NOT STARPU_LIBDIR MATCHES "^/usr/lib")
  set(SYLVA_PC_STARPU "${SYLVA_PC_STARPU} -Wl,-rpath,${STARPU_LIBDIR}")
endif()
set(SYLVA_PC_DEP_LIBS "-lcholmod -lamd -lcamd -lcolamd -lccolamd -lsuitesparseconfig -lmetis"
  "-lscotch -lscotcherr -lbz2")
if(SYLVA_ENABLE_CUDA)
  list(APPEND SYLVA_PC_DEP_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -Wl,-rpath,${CUDAToolkit_LIBRARY_DIR}"
    "-lcudart -lcublas -lcusolver -lstdc++")
endif()
list(APPEND SYLVA_PC_DEP_LIBS "-lm -lpthread -ldl")
foreach(d ${SYLVA_DEP_HINTS})
  if(NOT d MATCHES "^/usr/lib")
    list(PREPEND SYLVA_PC_DEP_LIBS "-L${d}")
  endif()
endforeach()
if(SYLVA_HAVE_MPI)
  # StarPU-MPI beside StarPU (same directory), and MPI's own link line.
  set(SYLVA_PC_STARPU "${SYLVA_PC_STARPU} -lstarpumpi-1.3")
  foreach(lib ${MPI_C_LIBRARIES})
    list(APPEND SYLVA_PC_DEP_LIBS ${lib})
  endforeach()
endif()
string(JOIN " " SYLVA_PC_LIBS_PRIVATE ${SYLVA_PC_DEP_LIBS})
set(SYLVA_PC_LIBS_PRIVATE_SHARED "${SYLVA_PC_STARPU} ${SYLVA_PC_LIBS_PRIVATE}")
configure_file(cmake/sylva.pc.in ${CMAKE_CURRENT_BINARY_DIR}/sylva.pc @ONLY)
configure_file(cmake/sylva-static.pc.in ${CMAKE_CURRENT_BINARY_DIR}/sylva-static.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/sylva.pc ${CMAKE_CURRENT_BINARY_DIR}/sylva-static.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
