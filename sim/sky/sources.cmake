# the real sky: Swiss Ephemeris (libswe), JPL SBDB small bodies, two-body propagation
find_path(NBODY_SWE_INCLUDE_DIR swephexp.h PATH_SUFFIXES libswe swe)
find_library(NBODY_SWE_LIBRARY NAMES swe)
if(NOT NBODY_SWE_INCLUDE_DIR OR NOT NBODY_SWE_LIBRARY)
  message(FATAL_ERROR "Swiss Ephemeris not found (swephexp.h, libswe): install the Debian "
                      "packages libswe-dev and swe-basic-data (scripts/dev.sh does)")
endif()
target_sources(nbody_sim PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/ephemeris.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kepler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sbdb.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fit_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fit_solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/carry.cpp
)
target_include_directories(nbody_sim PRIVATE ${NBODY_SWE_INCLUDE_DIR})
target_link_libraries(nbody_sim PRIVATE ${NBODY_SWE_LIBRARY} nlohmann_json::nlohmann_json)
