# file formats: native CSV and binary, Tipsy, AGORA
target_sources(nbody_sim PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/csv.cpp
)
