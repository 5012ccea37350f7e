target_sources(nbody PRIVATE cmd_bench.cpp)
