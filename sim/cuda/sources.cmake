# CUDA sources of nbody_sim (included by sim/CMakeLists.txt when NBODY_HAVE_CUDA).
option(NBODY_CUDA_PTXAS_VERBOSE "Print ptxas resource usage (registers, spills) of the kernels" OFF)
target_sources(nbody_sim PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cuda_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/gpu_backend.cu
  ${CMAKE_CURRENT_LIST_DIR}/naive.cu
  ${CMAKE_CURRENT_LIST_DIR}/tiled.cu
  ${CMAKE_CURRENT_LIST_DIR}/tiled2d.cu
  ${CMAKE_CURRENT_LIST_DIR}/barnes_hut.cu
)
target_link_libraries(nbody_sim PUBLIC CUDA::cudart)
# rsqrtf -> MUFU.RSQ with flush-to-zero; float accuracy stays < 1e-5 norm-wise (tests check it)
target_compile_options(nbody_sim PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)
# tree_math.hpp calls std::numeric_limits (constexpr) in host-device code
target_compile_options(nbody_sim PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
if(NBODY_CUDA_PTXAS_VERBOSE)
  target_compile_options(nbody_sim PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
endif()
