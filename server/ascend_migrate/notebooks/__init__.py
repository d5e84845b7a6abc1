"""Jupyter notebooks (.ipynb): code cells analysed as one program, positions as cell and line, fixes written back."""
