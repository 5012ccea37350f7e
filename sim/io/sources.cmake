# file formats: native CSV and binary, Tipsy, AGORA
target_sources(nbody_sim PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/csv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/binary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tipsy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/agora.cpp
  ${CMAKE_CURRENT_LIST_DIR}/format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/state.cpp
)
