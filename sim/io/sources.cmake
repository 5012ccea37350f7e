# file formats (one file and one row of format_table.cpp each): native CSV and binary, Tipsy,
# AGORA, JPL SBDB JSON
target_sources(nbody_sim PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/csv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/header.cpp
  ${CMAKE_CURRENT_LIST_DIR}/binary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tipsy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/agora.cpp
  ${CMAKE_CURRENT_LIST_DIR}/format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/format_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sbdb_format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/state.cpp
)
