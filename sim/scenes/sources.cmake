# scene generators; assets/solar_system.csv is embedded so the binary needs no source tree
set(NBODY_SOLAR_SYSTEM_CSV_FILE ${PROJECT_SOURCE_DIR}/assets/solar_system.csv)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NBODY_SOLAR_SYSTEM_CSV_FILE})
file(READ ${NBODY_SOLAR_SYSTEM_CSV_FILE} NBODY_SOLAR_SYSTEM_CSV)
configure_file(${CMAKE_CURRENT_LIST_DIR}/solar_system_data.cpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/solar_system_data.cpp @ONLY)
target_sources(nbody_sim PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/scene_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/small_scenes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spheres.cpp
  ${CMAKE_CURRENT_LIST_DIR}/galaxy.cpp
  ${CMAKE_CURRENT_BINARY_DIR}/generated/solar_system_data.cpp
)
