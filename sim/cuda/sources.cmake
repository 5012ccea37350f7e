# CUDA sources of nbody_sim (included by sim/CMakeLists.txt when NBODY_HAVE_CUDA).
option(NBODY_CUDA_PTXAS_VERBOSE "Print ptxas resource usage (registers, spills) of the kernels" OFF)
target_sources(nbody_sim PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cuda_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/device_store.cu
  ${CMAKE_CURRENT_LIST_DIR}/naive.cu
  ${CMAKE_CURRENT_LIST_DIR}/tiled.cu
  ${CMAKE_CURRENT_LIST_DIR}/tiled2d.cu
  ${CMAKE_CURRENT_LIST_DIR}/barnes_hut.cu
  ${CMAKE_CURRENT_LIST_DIR}/pairwise.cu
)
target_link_libraries(nbody_sim PUBLIC CUDA::cudart)
# rsqrtf -> MUFU.RSQ with flush-to-zero; float accuracy stays < 1e-5 norm-wise (tests check it)
target_compile_options(nbody_sim PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)
# tree_math.hpp calls std::numeric_limits (constexpr) in host-device code
target_compile_options(nbody_sim PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
if(NBODY_CUDA_PTXAS_VERBOSE)
  target_compile_options(nbody_sim PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
endif()

# Several GPUs need NCCL (shipped with the CUDA toolkit here): nccl.h + libnccl. Without it the
# build still works and --gpus > 1 is refused with a message saying why.
set(NBODY_WITH_NCCL AUTO CACHE STRING "Build the multi-GPU backend with NCCL: AUTO, ON or OFF")
set_property(CACHE NBODY_WITH_NCCL PROPERTY STRINGS AUTO ON OFF)
set(NBODY_HAVE_NCCL OFF)
if(NOT NBODY_WITH_NCCL STREQUAL "OFF")
  find_path(NBODY_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME
            PATH_SUFFIXES include)
  find_library(NBODY_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME
               PATH_SUFFIXES lib lib64)
  if(NBODY_NCCL_INCLUDE_DIR AND NBODY_NCCL_LIBRARY)
    set(NBODY_HAVE_NCCL ON)
  elseif(NBODY_WITH_NCCL STREQUAL "ON")
    message(FATAL_ERROR "NBODY_WITH_NCCL=ON but nccl.h or libnccl was not found (set NCCL_HOME)")
  endif()
endif()
if(NBODY_HAVE_NCCL)
  target_sources(nbody_sim PRIVATE ${CMAKE_CURRENT_LIST_DIR}/multi_gpu.cu)
  target_include_directories(nbody_sim PRIVATE ${NBODY_NCCL_INCLUDE_DIR})
  target_link_libraries(nbody_sim PUBLIC ${NBODY_NCCL_LIBRARY})
  target_compile_definitions(nbody_sim PRIVATE NBODY_HAVE_NCCL=1)
endif()
message(STATUS "nbody: NCCL=${NBODY_HAVE_NCCL} ${NBODY_NCCL_LIBRARY}")
