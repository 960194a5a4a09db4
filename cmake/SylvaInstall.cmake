# SylvaInstall.cmake — install libsylva (shared, exported as sylva::sylva;
# static as a plain archive), sylva.h, the `sylva` command, the CMake package
# files and sylva.pc.
include(CMakePackageConfigHelpers)
install(TARGETS sylva EXPORT sylvaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS sylva_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/sylva.h include/sylva_cholmod.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT sylvaTargets NAMESPACE sylva:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sylva)
configure_package_config_file(cmake/sylvaConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/sylvaConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sylva)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/sylvaConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/sylvaConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/sylvaConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sylva)
# sylva.pc: static linking needs the dependencies (Libs.private).
set(SYLVA_PC_REQUIRES_PRIVATE "starpu-1.3 openblas zlib liblzma")
string(JOIN " " SYLVA_PC_LIBS_PRIVATE "-lcholmod -lamd -lcamd -lcolamd -lccolamd"
  "-lsuitesparseconfig -lmetis -lscotch -lscotcherr -lbz2 -lm -lpthread")
configure_file(cmake/sylva.pc.in ${CMAKE_CURRENT_BINARY_DIR}/sylva.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/sylva.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
