# Helpers shared by every CMakeLists of jagged.

# jg_target_warnings(<target>): the project's warning set for C sources (and -Werror with
# JG_WERROR); nvcc gets -Werror=all-warnings with JG_WERROR.
function(jg_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:${JG_C_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:${JG_CUDA_WERROR}>)
endfunction()
