target_sources(nbody_sim PRIVATE
)
