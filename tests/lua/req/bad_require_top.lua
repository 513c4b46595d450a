-- A module outside the script's folder, required while the script loads.
local gto = require "../pol_gto"
return gto
