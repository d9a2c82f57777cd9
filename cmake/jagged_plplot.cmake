# PLplot, optional: `jagged adl` draws its histograms with it (cli/adl/adl_output.c: PNG through
# the pngcairo device of plplot-driver-cairo, SVG through PLplot's own svg device). Included from
# the top-level CMakeLists.txt so that cli/ and tests/ both see the result:
#   JG_HAVE_PLPLOT  ON when PLplot was found (and JG_WITH_PLPLOT is not OFF), else OFF;
#   jg_plplot       an imported interface target when found: PLplot's include directory and
#                   library, and the compile definition JG_HAVE_PLPLOT=1.
# Found through pkg-config (module plplot, Debian's libplplot-dev), else find_path/find_library.
# The devices are plug-ins loaded at run time; adl_plot_available() checks that they load.
set(JG_WITH_PLPLOT "AUTO" CACHE STRING "Draw jagged adl's plots with PLplot: AUTO, ON or OFF")
set_property(CACHE JG_WITH_PLPLOT PROPERTY STRINGS AUTO ON OFF)

set(JG_HAVE_PLPLOT OFF)
if(NOT JG_WITH_PLPLOT STREQUAL "OFF")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(JG_PLPLOT_PC QUIET IMPORTED_TARGET GLOBAL plplot)
  endif()
  if(TARGET PkgConfig::JG_PLPLOT_PC)
    add_library(jg_plplot INTERFACE IMPORTED GLOBAL)
    target_link_libraries(jg_plplot INTERFACE PkgConfig::JG_PLPLOT_PC)
    set(JG_HAVE_PLPLOT ON)
  else()
    find_path(JG_PLPLOT_INCLUDE_DIR plplot.h PATH_SUFFIXES plplot)
    find_library(JG_PLPLOT_LIBRARY NAMES plplot plplotd)
    if(JG_PLPLOT_INCLUDE_DIR AND JG_PLPLOT_LIBRARY)
      add_library(jg_plplot INTERFACE IMPORTED GLOBAL)
      target_include_directories(jg_plplot INTERFACE ${JG_PLPLOT_INCLUDE_DIR})
      target_link_libraries(jg_plplot INTERFACE ${JG_PLPLOT_LIBRARY})
      set(JG_HAVE_PLPLOT ON)
    endif()
  endif()
  if(JG_HAVE_PLPLOT)
    target_compile_definitions(jg_plplot INTERFACE JG_HAVE_PLPLOT=1)
  elseif(JG_WITH_PLPLOT STREQUAL "ON")
    message(FATAL_ERROR "JG_WITH_PLPLOT=ON but PLplot was not found (Debian: libplplot-dev)")
  endif()
endif()
message(STATUS "jagged: plots (PLplot) ${JG_HAVE_PLPLOT}")
