target_sources(nbody PRIVATE cli/cmd_bench.cpp)
