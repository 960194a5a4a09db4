# FindSylvaDeps.cmake — the libraries sylva links, gathered in one INTERFACE
# target `sylva_deps` (StarPU, METIS, Scotch, CHOLMOD and its SuiteSparse
# siblings, OpenBLAS, zlib, and cuBLAS/cuSOLVER when CUDA is on). METIS,
# Scotch and CHOLMOD ship neither CMake nor pkg-config files on Debian 12, so
# they are found by hand.
find_path(METIS_INCLUDE_DIR metis.h REQUIRED)
find_library(METIS_LIBRARY metis REQUIRED)
find_path(CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse REQUIRED)
# Scotch: Debian's libscotch-dev (32-bit SCOTCH_Num, header in scotch/).
# Only libscotch and libscotcherr: libscotchmetisv5 would shadow METIS_*.
find_path(SCOTCH_INCLUDE_DIR scotch.h PATH_SUFFIXES scotch REQUIRED)
find_library(SCOTCH_LIBRARY scotch REQUIRED)
find_library(SCOTCHERR_LIBRARY scotcherr REQUIRED)
foreach(lib cholmod amd camd colamd ccolamd suitesparseconfig)
  find_library(SUITESPARSE_${lib}_LIBRARY ${lib} REQUIRED)
  list(APPEND CHOLMOD_LIBRARIES ${SUITESPARSE_${lib}_LIBRARY})
endforeach()

add_library(sylva_deps INTERFACE)
target_include_directories(sylva_deps INTERFACE ${METIS_INCLUDE_DIR} ${CHOLMOD_INCLUDE_DIR}
  ${SCOTCH_INCLUDE_DIR})
target_link_libraries(sylva_deps INTERFACE PkgConfig::STARPU PkgConfig::OPENBLAS
  ${CHOLMOD_LIBRARIES} ${METIS_LIBRARY} ${SCOTCH_LIBRARY} ${SCOTCHERR_LIBRARY} ZLIB::ZLIB
  Threads::Threads m)
if(SYLVA_ENABLE_CUDA)
  target_link_libraries(sylva_deps INTERFACE CUDA::cudart CUDA::cublas CUDA::cusolver)
  target_compile_definitions(sylva_deps INTERFACE SYLVA_HAVE_CUDA=1)
endif()
