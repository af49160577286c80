autocmd BufRead,BufNewFile *.zeno setfiletype zeno
