# FindSylvaDeps.cmake — one INTERFACE target per outside library, so that
# each layer links exactly the ones it may use (docs/architecture.md):
#   sylva_ext_starpu   StarPU (and StarPU-MPI, MPI with SYLVA_HAVE_MPI) runtime/ only
#   sylva_ext_cuda     cudart (cuBLAS/cuSOLVER: dlopen) kernels/ only (CUDA builds)
#   sylva_ext_blas     OpenBLAS (CBLAS, LAPACK) kernels/, runtime/, api/ (dlacn2)
#   sylva_ext_cholmod  CHOLMOD and its SuiteSparse siblings, AMD
#   sylva_ext_metis    METIS                frontal/
#   sylva_ext_scotch   Scotch               frontal/
#   sylva_ext_zlib     zlib                 io/ (gzip input)
#   sylva_ext_bzip2    libbz2               io/ (bzip2 input)
#   sylva_ext_lzma     liblzma              io/ (xz input)
# and sylva_deps, all of them, for the final libraries and the programs
# that use CHOLMOD or BLAS themselves (benchmarks, tests).
# zlib, libbz2 and liblzma through CMake's own modules (Debian 12:
# zlib1g-dev, libbz2-dev, liblzma-dev), which make imported targets.
# METIS, Scotch and CHOLMOD ship neither CMake nor pkg-config files on
# Debian 12, so they are found by hand.
find_package(ZLIB REQUIRED)
find_package(BZip2 REQUIRED)
find_package(LibLZMA REQUIRED)
find_path(METIS_INCLUDE_DIR metis.h REQUIRED)
find_library(METIS_LIBRARY metis REQUIRED)
# Scotch: Debian's libscotch-dev (32-bit SCOTCH_Num, header in scotch/).
# Only libscotch and libscotcherr: libscotchmetisv5 would shadow METIS_*.
find_path(SCOTCH_INCLUDE_DIR scotch.h PATH_SUFFIXES scotch REQUIRED)
find_library(SCOTCH_LIBRARY scotch REQUIRED)
find_library(SCOTCHERR_LIBRARY scotcherr REQUIRED)
find_path(CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse REQUIRED)
foreach(lib cholmod amd camd colamd ccolamd suitesparseconfig)
  find_library(SUITESPARSE_${lib}_LIBRARY ${lib} REQUIRED)
  list(APPEND CHOLMOD_LIBRARIES ${SUITESPARSE_${lib}_LIBRARY})
endforeach()

add_library(sylva_ext_starpu INTERFACE)
target_link_libraries(sylva_ext_starpu INTERFACE PkgConfig::STARPU)
if(SYLVA_HAVE_MPI)
  # StarPU-MPI and MPI: runtime/ only, like StarPU.
  target_link_libraries(sylva_ext_starpu INTERFACE PkgConfig::STARPUMPI MPI::MPI_C)
endif()
add_library(sylva_ext_blas INTERFACE)
target_link_libraries(sylva_ext_blas INTERFACE PkgConfig::OPENBLAS m)
add_library(sylva_ext_cholmod INTERFACE)
target_include_directories(sylva_ext_cholmod INTERFACE ${CHOLMOD_INCLUDE_DIR})
target_link_libraries(sylva_ext_cholmod INTERFACE ${CHOLMOD_LIBRARIES})
add_library(sylva_ext_metis INTERFACE)
target_include_directories(sylva_ext_metis INTERFACE ${METIS_INCLUDE_DIR})
target_link_libraries(sylva_ext_metis INTERFACE ${METIS_LIBRARY})
add_library(sylva_ext_scotch INTERFACE)
target_include_directories(sylva_ext_scotch INTERFACE ${SCOTCH_INCLUDE_DIR})
target_link_libraries(sylva_ext_scotch INTERFACE ${SCOTCH_LIBRARY} ${SCOTCHERR_LIBRARY})
add_library(sylva_ext_zlib INTERFACE)
target_link_libraries(sylva_ext_zlib INTERFACE ZLIB::ZLIB)
add_library(sylva_ext_bzip2 INTERFACE)
target_link_libraries(sylva_ext_bzip2 INTERFACE BZip2::BZip2)
add_library(sylva_ext_lzma INTERFACE)
target_link_libraries(sylva_ext_lzma INTERFACE LibLZMA::LibLZMA)
add_library(sylva_ext_cuda INTERFACE)
if(SYLVA_ENABLE_CUDA)
  # cudart only: cuBLAS and cuSOLVER are opened when a GPU is used
  # (kernels/gpu_libs.cu), so a CPU run maps neither. A program that calls
  # them itself (a kernel test, bench-kernels) links them on its own.
  target_link_libraries(sylva_ext_cuda INTERFACE CUDA::cudart ${CMAKE_DL_LIBS})
endif()

add_library(sylva_deps INTERFACE)
target_link_libraries(sylva_deps INTERFACE sylva_ext_starpu sylva_ext_blas sylva_ext_cholmod
  sylva_ext_metis sylva_ext_scotch sylva_ext_zlib sylva_ext_bzip2 sylva_ext_lzma sylva_ext_cuda Threads::Threads m ${CMAKE_DL_LIBS})
