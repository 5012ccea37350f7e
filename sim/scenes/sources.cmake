# scene generators
target_sources(nbody_sim PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/scene_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/small_scenes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spheres.cpp
  ${CMAKE_CURRENT_LIST_DIR}/galaxy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/galaxy_df.cpp
  ${CMAKE_CURRENT_LIST_DIR}/toomre.cpp
  ${CMAKE_CURRENT_LIST_DIR}/framing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/impact.cpp
)
